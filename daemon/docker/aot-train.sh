#!/usr/bin/env bash
# Makes the JDK's AOT cache (JEP 483/514) for migd in the layout and JVM it will run with: one
# start of `migd serve` on eight simulated H100s (no GPU exists at image build time; the classes
# migd loads on a real node are the same, the simulator's are in the jar either way), up to ready,
# then SIGTERM. The JVM writes the cache as it exits. The JVM's options come from
# JAVA_TOOL_OPTIONS, so a cache is made for the options it will be used with.
#
# Usage: aot-train.sh <cache file> [directory holding migd.jar and lib/, default /opt/migd]
set -euo pipefail

cache=${1:?usage: aot-train.sh <cache file> [app dir]}
app=${2:-/opt/migd}
java=${JAVA:-java}
port=${MIGD_TRAIN_PORT:-18080}
gpus=H100-SXM5-80GB,H100-SXM5-80GB,H100-SXM5-80GB,H100-SXM5-80GB,H100-SXM5-80GB,H100-SXM5-80GB,H100-SXM5-80GB,H100-SXM5-80GB
state=$(mktemp -d)
trap 'rm -rf "$state"' EXIT

rm -f "$cache"
# no kubelet, no Kubernetes, the simulated GPUs in memory
env -u NODE_NAME -u NVML_SIM_STATE MIGD_KUBELET_ENABLED=false \
  "$java" --enable-native-access=ALL-UNNAMED -XX:AOTCacheOutput="$cache" \
  -jar "$app/migd.jar" serve --simulate="$gpus" --migd.config=all-balanced \
  --migd.state-dir="$state" --server.port="$port" &
pid=$!

# bash's /dev/tcp: the JRE image has no curl
ready() {
  exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
  printf 'GET /actuator/health/readiness HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3
  grep -q '"UP"' <&3
}
for _ in $(seq 1 1200); do
  if (ready) 2>/dev/null; then
    kill -TERM "$pid"
    # 143 is the exit after SIGTERM; the cache file is what tells success
    wait "$pid" || true
    if [ -s "$cache" ]; then
      echo "aot-train.sh: wrote $cache ($(du -h "$cache" | cut -f1))"
      exit 0
    fi
    echo "aot-train.sh: migd stopped but wrote no $cache" >&2
    exit 1
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    wait "$pid" || true
    echo "aot-train.sh: migd exited before it was ready" >&2
    exit 1
  fi
  sleep 0.1
done
kill -KILL "$pid"
echo "aot-train.sh: migd not ready within 120 s" >&2
exit 1
