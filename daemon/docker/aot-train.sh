#!/usr/bin/env bash
# Makes migd's JDK AOT caches (JEP 483/514), one per kubelet mode, in the layout and on the JVM they
# will be used with: <cache dir>/migd-off.aot, migd-device-plugin.aot and migd-dra.aot. Each is one
# start of `migd serve` on eight simulated H100s (no GPU exists at image build time; the classes
# migd loads on a real node are the same) in a node of its mode: the test kubelet and PodResources
# (device-plugin), the test DRA kubelet and a Kubernetes 1.36 API server (dra), nothing (off); up
# to ready, then SIGTERM, and the JVM writes the cache as it exits. The harness that plays the
# kubelet and the API server is the bench's (io.migd.bench.footprint.AotTrain in
# bench/target/benchmarks.jar): the image's build mounts it for this step only, so no test code is
# in the image.
#
# migd's JVM options are JAVA_TOOL_OPTIONS (as the image and the chart set them), its environment
# MALLOC_ARENA_MAX and SPRINGDOC_*: a cache is made for the options and classes a pod runs with.
#
# Usage: aot-train.sh <benchmarks.jar> [app dir holding migd.jar and lib/, default /opt/migd]
#                     [cache dir, default the app dir]
set -euo pipefail

harness=${1:?usage: aot-train.sh <benchmarks.jar> [app dir] [cache dir]}
app=${2:-/opt/migd}
caches=${3:-$app}
java=${JAVA:-java}

options=${JAVA_TOOL_OPTIONS:-}
environment=()
for name in MALLOC_ARENA_MAX SPRINGDOC_API_DOCS_ENABLED SPRINGDOC_SWAGGER_UI_ENABLED; do
  if [ -n "${!name:-}" ]; then
    environment+=("env:$name=${!name}")
  fi
done

# The harness runs with the JVM's defaults; migd, its child, with the options above.
exec env -u JAVA_TOOL_OPTIONS -u MALLOC_ARENA_MAX "$java" -cp "$harness" \
  io.migd.bench.footprint.AotTrain "$app" "$caches" "$options" "${environment[@]}"
