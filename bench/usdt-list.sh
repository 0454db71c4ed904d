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
. "$here/lib.sh"
WARMUP=1

pids=()
cleanup() {
  [ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2>/dev/null
  wait 2>/dev/null
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

rows=$("$dtrace" -l | awk '$2 ~ /^python[0-9]+$/' | wc -l)
echo "processes: $n, pythonPID rows listed: $rows"
echo "dtrace -l: $(median_wall_ms "$dtrace" -l) ms (median of $runs)"
