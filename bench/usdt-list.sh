#!/usr/bin/env bash
# `dtrace -l` on a machine running many processes with USDT probes: N
# (default 300) sleeping python3.11 processes, each listed as its own
# provider (pythonPID); the median wall time of the listing over $RUNS
# runs, and how many pythonPID rows it printed. Needs root.
#   bench/usdt-list.sh [path/to/dtrace]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dtrace=${1:-$here/../build/dtrace}
runs=${RUNS:-10}
n=${N:-300}
python=/usr/bin/python3.11

pids=()
json=$(mktemp)
cleanup() {
  [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null
  wait 2>/dev/null
  rm -f "$json"
}
trap cleanup EXIT
for _ in $(seq "$n"); do
  "$python" -c 'import time; time.sleep(3600)' &
  pids+=($!)
done
# Every process has mapped its executable once its maps name it.
for p in "${pids[@]}"; do
  for _ in $(seq 100); do
    grep -q python3.11 "/proc/$p/maps" 2>/dev/null && break
    sleep 0.05
  done
done

# hyperfine runs the command with no shell in between; without it, the
# shell's clock around each run adds a few ms.
median_ms() {
  if command -v hyperfine >/dev/null; then
    hyperfine -N -w 1 -r "$runs" --export-json "$json" "$(printf '%q ' "$@")" >/dev/null 2>&1
    python3 -c 'import json,sys; print("%.1f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1000))' "$json"
    return
  fi
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    echo "$(((t1 - t0) / 1000))"
  done | sort -n | awk '{a[NR]=$1} END {printf "%.1f\n", a[int((NR+1)/2)] / 1000}'
}

rows=$("$dtrace" -l | awk '$2 ~ /^python[0-9]+$/' | wc -l)
echo "processes: $n, pythonPID rows listed: $rows"
echo "dtrace -l: $(median_ms "$dtrace" -l) ms (median of $runs)"
