#!/usr/bin/env bash
# Speculation throughput: each getppid(2) call of a loop speculates one
# printf record at entry and another at return, then commits it (every
# other call) or discards it. Prints
# committed records per second and the speculations that failed. Against
# the same two records sent straight to the principal buffer.
#   bench/speculation.sh [path/to/dtrace]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dtrace=${1:-$here/../build/dtrace}
calls=${CALLS:-1000000}
loop=$(mktemp) out=$(mktemp) err=$(mktemp)
trap 'rm -f "$loop" "$out" "$err"' EXIT
cc -O2 -o "$loop" "$here/getppid_loop.c"
run() {
  local t0 t1 secs records failed
  t0=$(date +%s%N)
  "$dtrace" -q -n "$1" -c "$loop $calls" >"$out" 2>"$err"
  t1=$(date +%s%N)
  records=$(grep -c ' ' "$out" || true)
  failed=$(awk '/failed speculation|speculative drop|drops? on CPU/ { s += $2 } END { print s + 0 }' "$err")
  secs=$(echo "($t1 - $t0) / 1000000000" | bc -l)
  printf '%-12s records %d, lost %d, %.2f s, %.2f M records/s (workload included)\n' \
    "$2" "$records" "$failed" "$secs" "$(echo "$records / $secs / 1000000" | bc -l)"
}
run 'BEGIN { n = 0; } syscall::getppid:entry /pid == $target/ { self->s = speculation(); speculate(self->s);
       printf("%d %d\n", tid, n); }
     syscall::getppid:return /self->s/ { speculate(self->s); printf("%d %d\n", tid, arg0); }
     syscall::getppid:return /self->s && n % 2 == 0/ { commit(self->s); self->s = 0; }
     syscall::getppid:return /self->s/ { discard(self->s); self->s = 0; }
     syscall::getppid:return /pid == $target/ { n++; }' speculated
run 'BEGIN { n = 0; } syscall::getppid:entry /pid == $target/ { printf("%d %d\n", tid, n); }
     syscall::getppid:return /pid == $target/ { printf("%d %d\n", tid, arg0); n++; }' direct
