#!/usr/bin/env bash
# Builds the simulated NVML: OUTDIR/libnvidia-ml.so.1, OUTDIR/nvml-sim, the simulated MPS
# control command OUTDIR/nvidia-cuda-mps-control and client OUTDIR/mps-client, a stand-in
# OUTDIR/nvidia-smi (compute mode) and OUTDIR/container-init (those linked to the library find it
# beside themselves). MODELS_TSV is the GPU model data (profiles/.../gpu-models.tsv), embedded into
# the library at compile time. See test-fixtures/README.md.
#
#   bash test-fixtures/build-sim.sh OUTDIR MODELS_TSV
set -euo pipefail

if [ "$#" -ne 2 ]; then
  echo "usage: $0 OUTDIR MODELS_TSV" >&2
  exit 2
fi
out=$1
tsv=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src="$here/src/main/c"
cc=${CC:-gcc}

if ! command -v "$cc" >/dev/null 2>&1; then
  echo "build-sim.sh: C compiler '$cc' not found; the simulated NVML is built from C." >&2
  echo "  Install gcc (Debian/Ubuntu: apt-get install gcc) or set CC." >&2
  exit 1
fi
if [ ! -f "$tsv" ]; then
  echo "build-sim.sh: GPU model data '$tsv' not found" >&2
  exit 1
fi

mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nvml-sim-build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
case "$tmp" in
  *[\"\\\ ]*)
    echo "build-sim.sh: temporary directory '$tmp' has a quote, backslash or space; set TMPDIR" >&2
    exit 1
    ;;
esac
# .incbin reads the data at compile time; a private copy keeps the path simple to quote.
cp "$tsv" "$tmp/gpu-models.tsv"

lib_sources=()
for f in "$src"/*.c; do
  case "$(basename "$f")" in
    *_main.c) ;;
    *) lib_sources+=("$f") ;;
  esac
done

warn=(-Wall -Wextra -Werror)
"$cc" -std=gnu11 -shared -fPIC -O2 "${warn[@]}" -fvisibility=hidden -pthread \
  -Wl,-soname,libnvidia-ml.so.1 -Wl,-Bsymbolic -Wl,--no-undefined \
  -DSIM_MODELS_TSV="\"$tmp/gpu-models.tsv\"" \
  -o "$tmp/libnvidia-ml.so.1" "${lib_sources[@]}"

"$cc" -std=gnu11 -O2 "${warn[@]}" -o "$tmp/nvml-sim" "$src/nvml_sim_main.c" \
  "$tmp/libnvidia-ml.so.1" -Wl,-rpath,'$ORIGIN'

# The simulated MPS control command (README.md, "Simulated MPS").
"$cc" -std=gnu11 -O2 "${warn[@]}" -I"$src" -o "$tmp/nvidia-cuda-mps-control" "$src/mps_control_main.c" \
  "$tmp/libnvidia-ml.so.1" -Wl,-rpath,'$ORIGIN'

# The stand-ins a pod test runs beside it (README.md, "Simulated MPS" and "Containers"): an MPS
# client, nvidia-smi for the compute mode, and a container's init.
"$cc" -std=gnu11 -O2 "${warn[@]}" -o "$tmp/mps-client" "$src/mps_client_main.c"
"$cc" -std=gnu11 -O2 "${warn[@]}" -I"$src" -o "$tmp/nvidia-smi" "$src/smi_main.c" \
  "$tmp/libnvidia-ml.so.1" -Wl,-rpath,'$ORIGIN'
"$cc" -std=gnu11 -O2 "${warn[@]}" -o "$tmp/container-init" "$src/container_init_main.c"

# SHA-1 (MIG UUIDs) against known answers.
"$cc" -std=gnu11 -O2 "${warn[@]}" -I"$src" -o "$tmp/sha1-test" "$here/src/test/c/sha1_test.c" "$src/sha1.c"
status=0
"$tmp/sha1-test" || status=$?
if [ "$status" -eq 126 ]; then
  echo "build-sim.sh: cannot run the SHA-1 test here (cross build?); not checked" >&2
elif [ "$status" -ne 0 ]; then
  echo "build-sim.sh: SHA-1 known-answer test failed" >&2
  exit 1
fi

# The library must export exactly the 76 NVML functions plus nvmlsim_control.
if command -v nm >/dev/null 2>&1; then
  exported=$(nm -D --defined-only "$tmp/libnvidia-ml.so.1" | awk '$2 == "T" {print $3}' | sort)
  count=$(printf '%s\n' "$exported" | grep -c .)
  if [ "$count" -ne 77 ]; then
    echo "build-sim.sh: expected 77 exported functions, found $count:" >&2
    printf '%s\n' "$exported" >&2
    exit 1
  fi
fi

# The embedded model data must parse (skipped when cross-compiling: the binary cannot run here).
status=0
"$tmp/nvml-sim" models >/dev/null 2>"$tmp/models.err" || status=$?
if [ "$status" -eq 126 ]; then
  echo "build-sim.sh: cannot run the built nvml-sim here (cross build?); model data not checked" >&2
elif [ "$status" -ne 0 ]; then
  echo "build-sim.sh: the embedded model data does not parse:" >&2
  cat "$tmp/models.err" >&2
  exit 1
fi

# Replace by rename so that processes that have the old library mapped keep a valid file.
for f in libnvidia-ml.so.1 nvml-sim nvidia-cuda-mps-control mps-client nvidia-smi container-init; do
  cp "$tmp/$f" "$out/.$f.new"
  mv -f "$out/.$f.new" "$out/$f"
done
echo "build-sim.sh: built $out/libnvidia-ml.so.1, $out/nvml-sim, $out/nvidia-cuda-mps-control," \
  "$out/mps-client, $out/nvidia-smi and $out/container-init"
