#!/usr/bin/env bash
# Principal-buffer throughput: printf records drained per second, with drops
# (if any) counted. A getppid(2) loop fires the probe $CALLS times.
#   bench/drain.sh [path/to/dtrace]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dtrace=${1:-$here/../build/dtrace}
calls=${CALLS:-2000000}
loop=$(mktemp) out=$(mktemp) err=$(mktemp)
trap 'rm -f "$loop" "$out" "$err"' EXIT
cc -O2 -o "$loop" "$here/getppid_loop.c"
t0=$(date +%s%N)
"$dtrace" -q -n 'syscall::getppid:entry /pid == $target/ { printf("%d %d\n", tid, arg0); }' \
  -c "$loop $calls" >"$out" 2>"$err"
t1=$(date +%s%N)
records=$(grep -c ' ' "$out")
drops=$(awk '/drops? on CPU/ { s += $2 } END { print s + 0 }' "$err")
secs=$(echo "($t1 - $t0) / 1000000000" | bc -l)
printf 'records %d, drops %d, %.2f s, %.2f M records/s (whole run, workload included)\n' \
  "$records" "$drops" "$secs" "$(echo "$records / $secs / 1000000" | bc -l)"
