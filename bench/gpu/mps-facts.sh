#!/bin/sh
# The MPS facts migd's shares rely on that NVIDIA's documents leave open (docs/contract.md,
# "Fractions"), checked on a real GPU. Run as root on a GPU node with no other MPS daemon and no
# CUDA process on the GPU:
#
#   bench/gpu/mps-facts.sh <GPU UUID> [<MIG device UUID>]
#
# 1. a client's CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=<N>M is accepted and holds it to N MiB;
# 2. nvidia-cuda-mps-control -d -M (multi-user, as migd starts a share's daemon) runs;
# 3. under EXCLUSIVE_PROCESS, a client that clears CUDA_MPS_PIPE_DIRECTORY (a pipe directory with
#    no daemon) is refused a context while the MPS server holds the GPU;
# 4. with a MIG UUID: set_default_device_pinned_mem_limit 0 <N>M (an ordinal, the one device the
#    daemon sees) holds a client on that MIG device to N MiB.
# Prints PASS or FAIL per fact and exits non-zero when one fails. It changes the GPU's compute mode
# and restores DEFAULT.
set -eu
gpu=${1:?usage: mps-facts.sh <GPU UUID> [<MIG device UUID>]}
mig=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/mps-facts.XXXXXX)
client="$work/mps-alloc"
gcc -O1 -o "$client" "$here/mps-alloc.c" -ldl
failed=0

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; failed=1; }

start_daemon() { # <dir> <device> [-M]
  mkdir -p "$1/pipe" "$1/log"
  CUDA_VISIBLE_DEVICES=$2 CUDA_MPS_PIPE_DIRECTORY="$1/pipe" CUDA_MPS_LOG_DIRECTORY="$1/log" \
    nvidia-cuda-mps-control -d ${3:-}
}
control() { # <dir> <command>
  echo "$2" | CUDA_MPS_PIPE_DIRECTORY="$1/pipe" nvidia-cuda-mps-control
}
stop_daemon() { control "$1" quit >/dev/null 2>&1 || true; sleep 1; }
allocated() { sed -n 's/.*allocated_mib=\([0-9]*\).*/\1/p'; }

cleanup() {
  for d in "$work"/*/; do [ -d "$d/pipe" ] && stop_daemon "${d%/}"; done
  nvidia-smi -i "$gpu" -c DEFAULT >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# 1 and 2: a whole GPU, EXCLUSIVE_PROCESS, a multi-user daemon
nvidia-smi -i "$gpu" -c EXCLUSIVE_PROCESS >/dev/null
if start_daemon "$work/whole" "$gpu" -M; then pass "-M: nvidia-cuda-mps-control -d -M runs"
else fail "-M: nvidia-cuda-mps-control -d -M did not start"; fi
got=$(CUDA_VISIBLE_DEVICES=$gpu CUDA_MPS_PIPE_DIRECTORY="$work/whole/pipe" \
  CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=1024M "$client" 4096 | allocated)
if [ -n "$got" ] && [ "$got" -le 1024 ] && [ "$got" -gt 0 ]; then
  pass "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=1024M held the client to ${got} MiB"
else fail "CUDA_MPS_PINNED_DEVICE_MEM_LIMIT=0=1024M: the client got '${got}' MiB of 4096 asked"; fi

# 3: a client that leaves MPS, while a client holds the server
CUDA_VISIBLE_DEVICES=$gpu CUDA_MPS_PIPE_DIRECTORY="$work/whole/pipe" "$client" 64 >/dev/null &
sleep 2
out=$(CUDA_VISIBLE_DEVICES=$gpu CUDA_MPS_PIPE_DIRECTORY="$work/nowhere" "$client" 64 || true)
case "$out" in
  context=refused*) pass "EXCLUSIVE_PROCESS refused a client outside MPS ($out)" ;;
  *) fail "EXCLUSIVE_PROCESS: a client outside MPS got '$out'" ;;
esac
wait || true
stop_daemon "$work/whole"
nvidia-smi -i "$gpu" -c DEFAULT >/dev/null

# 4: an ordinal limit on a daemon that sees one MIG device
if [ -n "$mig" ]; then
  start_daemon "$work/mig" "$mig" -M
  control "$work/mig" "set_default_device_pinned_mem_limit 0 1024M" >/dev/null
  got=$(CUDA_VISIBLE_DEVICES=$mig CUDA_MPS_PIPE_DIRECTORY="$work/mig/pipe" "$client" 4096 | allocated)
  if [ -n "$got" ] && [ "$got" -le 1024 ] && [ "$got" -gt 0 ]; then
    pass "an ordinal limit (0) under MIG device $mig held the client to ${got} MiB"
  else fail "an ordinal limit (0) under MIG device $mig: the client got '${got}' MiB of 4096"; fi
  stop_daemon "$work/mig"
else
  echo "SKIP an ordinal limit under a MIG UUID: no MIG device UUID given"
fi
exit $failed
