#!/usr/bin/env bash
# Printing 10,000 distinct user stacks: a workload enters the kernel from
# 10,000 call chains (bench/many_stacks.c), each counted by ustack(); the
# time from END (its walltimestamp) to dtrace's exit is the snapshot, the
# symbol lookups (the workload has exited by then) and the printing.
#   bench/ustack-print.sh [path/to/dtrace]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dtrace=${1:-$here/../build/dtrace}
work=$(mktemp) out=$(mktemp)
trap 'rm -f "$work" "$out"' EXIT
cc -O2 -fno-omit-frame-pointer -o "$work" "$here/many_stacks.c"
"$dtrace" -x aggsize=16m -q -c "$work" -n '
  syscall::getppid:entry /pid == $target/ { @[ustack()] = count(); }
  END { printf("end %d\n", walltimestamp); }' >"$out"
t1=$(date +%s%N)
t0=$(awk '/^end / { print $2 }' "$out")
printf 'stacks printed %d, snapshot + symbols + print %.3f s\n' \
  "$(grep -c '^ *[0-9][0-9]*$' "$out")" "$(echo "($t1 - $t0) / 1000000000" | bc -l)"
