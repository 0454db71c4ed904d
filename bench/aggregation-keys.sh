#!/usr/bin/env bash
# Aggregation snapshot: $KEYS distinct keys are created, then read from the
# kernel, merged, sorted and printed when tracing ends. END prints its
# walltimestamp first; the time from then to dtrace's exit is the snapshot.
# FUNC picks the aggregating function (count() by default). A quantize()
# value takes a map entry per bucket used, key and CPU: AGGSIZE=128m holds
# 1,000,000 keys of one bucket each (docs/PERFORMANCE.md also used 1g).
# The output is appended to a fresh file: ext4 writes a file truncated by
# `>` back to disk when it is closed (auto_da_alloc), which for 295 MB of
# quantize() output added 0.15 s of the file system's own work to the time.
#   bench/aggregation-keys.sh [path/to/dtrace]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dtrace=${1:-$here/../build/dtrace}
keys=${KEYS:-1000000}
func=${FUNC:-count()}
loop=$(mktemp) out=$(mktemp)
trap 'rm -f "$loop" "$out"' EXIT
cc -O2 -o "$loop" "$here/getppid_loop.c"
"$dtrace" -x aggsize=${AGGSIZE:-256m} -q -c "$loop $keys" -n '
  syscall::getppid:entry /pid == $target/ { @[timestamp] = '"$func"'; }
  END { printf("end %d\n", walltimestamp); }' >>"$out"
t1=$(date +%s%N)
t0=$(awk '/^end / { print $2 }' "$out")
printf 'keys printed %d, snapshot + sort + print %.2f s\n' \
  "$(grep -c '^ *[0-9]' "$out")" "$(echo "($t1 - $t0) / 1000000000" | bc -l)"
