#!/bin/sh
# The MPS supervisor of the chart's <release>-mps DaemonSet (docs/contract.md, "MPS"). No JVM: a
# POSIX shell loop, so that restarts, upgrades and crashes of migd's pod touch no MPS daemon.
#
# migd asks for a daemon by writing <root>/<id>/daemon.json and removes the file to stop it. For
# each file this script keeps one `nvidia-cuda-mps-control -f` running:
#   - <root>/<id>/shm is a tmpfs of the file's shmSizeBytes (never the host's /run), mounted here
#     and seen by the host through the volume's Bidirectional propagation; the daemon runs in a
#     mount namespace of its own whose /dev/shm is that tmpfs, the one clients get at /dev/shm;
#   - CUDA_VISIBLE_DEVICES is the file's device, CUDA_MPS_PIPE_DIRECTORY <root>/<id>/pipe (clients
#     get it at /tmp/nvidia-mps), CUDA_MPS_LOG_DIRECTORY <root>/<id>/log; -M when multiUser;
#   - a whole GPU (wholeGpu) is in compute mode EXCLUSIVE_PROCESS while its daemon runs, DEFAULT
#     after it stops;
#   - the limits the file has (activeThreadPercentage, pinnedMemoryLimitMib; either may be left
#     out) are set before the state says running, and again when the file's limits change;
#   - a daemon that exits is started again; <root>/<id>/state says `starting`, `running <pid>`,
#     `exited <status>`, `failed <why>` or `stopped`.
# SIGTERM stops every daemon (quit), restores the compute modes and exits.
#
# Environment: MPS_ROOT (/run/nvidia/mps), MPS_CONTROL_COMMAND (nvidia-cuda-mps-control),
# MPS_SMI_COMMAND (nvidia-smi), MPS_POLL_SECONDS (1).
set -u

root=${MPS_ROOT:-/run/nvidia/mps}
control=${MPS_CONTROL_COMMAND:-nvidia-cuda-mps-control}
smi=${MPS_SMI_COMMAND:-nvidia-smi}
poll=${MPS_POLL_SECONDS:-1}
# the ids this supervisor runs a daemon for, space-separated
ids=""

log() {
  echo "mps-supervisor: $*" >&2
}

# The value of "key" in a daemon.json migd wrote (one key per line), quotes removed.
value() {
  sed -n "s/^ *\"$2\": *\"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\} *\$/\1/p" "$1" | head -n 1
}

# Writes <id>/state whole, then renames it: a reader never sees half a line.
state() {
  printf '%s\n' "$2" >"$root/$1/.state.tmp" && mv -f "$root/$1/.state.tmp" "$root/$1/state"
}

# Whether process $1 runs (a zombie, exited but not yet reaped, does not).
running() {
  [ -n "$1" ] || return 1
  s=$(sed -n 's/^[0-9]* (.*) \([A-Z]\).*/\1/p' "/proc/$1/stat" 2>/dev/null)
  [ -n "$s" ] && [ "$s" != Z ]
}

pid_of() {
  cat "$root/$1/.pid" 2>/dev/null
}

tracked() {
  case " $ids " in *" $1 "*) return 0 ;; *) return 1 ;; esac
}

send() {
  # $1 id, then the commands
  id=$1
  shift
  printf '%s\n' "$@" | CUDA_MPS_PIPE_DIRECTORY="$root/$id/pipe" \
    CUDA_MPS_LOG_DIRECTORY="$root/$id/log" "$control"
}

# Sends the limits the file has (a limit left out keeps MPS's default: no limit), by ordinal 0, the
# one device the daemon sees.
send_limits() {
  file="$root/$1/daemon.json"
  threads=$(value "$file" activeThreadPercentage)
  memory=$(value "$file" pinnedMemoryLimitMib)
  set -- "$1"
  [ -n "$threads" ] && set -- "$@" "set_default_active_thread_percentage $threads"
  [ -n "$memory" ] && set -- "$@" "set_default_device_pinned_mem_limit 0 ${memory}M"
  [ "$#" -gt 1 ] || return 0
  send "$@" >/dev/null
}

start() {
  id=$1
  dir="$root/$id"
  file="$dir/daemon.json"
  device=$(value "$file" device)
  if [ -z "$device" ]; then
    state "$id" "failed $file names no device"
    return 1
  fi
  state "$id" starting
  mkdir -p "$dir/pipe" "$dir/log" "$dir/shm"
  if ! mountpoint -q "$dir/shm"; then
    if ! mount -t tmpfs -o "size=$(value "$file" shmSizeBytes),mode=1777,nosuid,nodev" \
      migd-mps-shm "$dir/shm"; then
      state "$id" "failed mounting a tmpfs at $dir/shm"
      return 1
    fi
  fi
  if [ "$(value "$file" wholeGpu)" = true ]; then
    if ! "$smi" -i "$device" -c EXCLUSIVE_PROCESS >&2; then
      state "$id" "failed setting compute mode EXCLUSIVE_PROCESS on $device"
      return 1
    fi
  fi
  multi=""
  [ "$(value "$file" multiUser)" = true ] && multi=-M
  rm -f "$dir/pipe/control"
  # unshare execs, so $! is the daemon itself; its /dev/shm is the device's tmpfs
  CUDA_VISIBLE_DEVICES="$device" CUDA_MPS_PIPE_DIRECTORY="$dir/pipe" \
    CUDA_MPS_LOG_DIRECTORY="$dir/log" unshare -m --propagation private \
    sh -c 'mount --bind "$1" /dev/shm && shift && exec "$@"' \
    sh "$dir/shm" "$control" -f $multi </dev/null &
  pid=$!
  echo "$pid" >"$dir/.pid"
  cksum <"$file" >"$dir/.sent"
  ids="$ids $id"
  # the control pipe is there once the daemon takes commands
  tries=0
  while [ ! -e "$dir/pipe/control" ] && running "$pid" && [ "$tries" -lt 100 ]; do
    sleep 0.1
    tries=$((tries + 1))
  done
  if running "$pid" && send_limits "$id"; then
    state "$id" "running $pid"
    log "id=$id device=$device pid=$pid running"
  else
    log "id=$id device=$device pid=$pid did not start; trying again"
  fi
}

# Stops the daemon of $1 (quit, then SIGTERM, then SIGKILL) and undoes what its start did.
stop() {
  id=$1
  dir="$root/$id"
  pid=$(pid_of "$id")
  if running "$pid"; then
    send "$id" quit >/dev/null 2>&1
    tries=0
    while running "$pid" && [ "$tries" -lt 50 ]; do
      sleep 0.1
      tries=$((tries + 1))
    done
    running "$pid" && kill -TERM "$pid" 2>/dev/null
    sleep 0.1
    running "$pid" && kill -KILL "$pid" 2>/dev/null
  fi
  [ -n "$pid" ] && wait "$pid" 2>/dev/null
  device=$(cat "$dir/.device" 2>/dev/null)
  if [ "$(cat "$dir/.whole" 2>/dev/null)" = true ] && [ -n "$device" ]; then
    "$smi" -i "$device" -c DEFAULT >&2 || log "id=$id device=$device compute mode not restored"
  fi
  mountpoint -q "$dir/shm" && umount "$dir/shm"
  rm -f "$dir/.pid" "$dir/.sent" "$dir/.device" "$dir/.whole"
  state "$id" stopped
  log "id=$id stopped"
  rest=""
  for other in $ids; do
    [ "$other" = "$id" ] || rest="$rest $other"
  done
  ids=$rest
}

stop_all() {
  for id in $ids; do
    stop "$id"
  done
  exit 0
}
trap stop_all TERM INT

log "root=$root control=$control supervising"
mkdir -p "$root"
while :; do
  for file in "$root"/*/daemon.json; do
    [ -f "$file" ] || continue
    id=$(basename "$(dirname "$file")")
    dir="$root/$id"
    if ! tracked "$id"; then
      value "$file" device >"$dir/.device"
      value "$file" wholeGpu >"$dir/.whole"
      start "$id"
      continue
    fi
    pid=$(pid_of "$id")
    if ! running "$pid"; then
      wait "$pid" 2>/dev/null
      status=$?
      # migd removes the file before it sends quit: a daemon that exited after the file was seen
      # above was stopped, not crashed (its compute mode is restored, its shm unmounted)
      if [ ! -f "$file" ]; then
        stop "$id"
        continue
      fi
      log "id=$id pid=$pid exited (status $status); starting it again"
      state "$id" "exited $status"
      ids=$(for other in $ids; do [ "$other" = "$id" ] || printf ' %s' "$other"; done)
      continue
    fi
    if [ "$(cksum <"$file")" != "$(cat "$dir/.sent" 2>/dev/null)" ] && send_limits "$id"; then
      cksum <"$file" >"$dir/.sent"
      log "id=$id limits sent again"
    fi
  done
  for id in $ids; do
    [ -f "$root/$id/daemon.json" ] || stop "$id"
  done
  sleep "$poll" &
  # a TERM interrupts this wait at once, not after the sleep
  wait $!
done
