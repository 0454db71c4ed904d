#!/usr/bin/env bash
# Added cost per firing of syscall::getppid:entry { @[execname] = count(); }
# against no tracing, an (almost) empty program on the same probe, and
# bpftrace's equivalent when it is installed. Each configuration runs a
# getppid(2) loop under the tracer; the loop reports its own ns per call,
# so tracer start-up and exit are not counted. Medians of $RUNS runs.
#   bench/probe-effect.sh [path/to/dtrace]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dtrace=${1:-$here/../build/dtrace}
runs=${RUNS:-5}
calls=${CALLS:-2000000}
loop=$(mktemp)
trap 'rm -f "$loop"' EXIT
cc -O2 -o "$loop" "$here/getppid_loop.c"

. "$(dirname "$0")/lib.sh"
run() { median_of_runs "$@"; }  # "$@" runs $loop, which prints its ns/call

base=$(run "$loop" "$calls")
empty=$(run "$dtrace" -q -n 'syscall::getppid:entry /0/ { }' -c "$loop $calls")
agg=$(run "$dtrace" -q -n 'syscall::getppid:entry { @[execname] = count(); }' -c "$loop $calls")
# A thread-local timestamp at entry, its latency summed at return: the
# variable is stored again on every call (the element exists after the first).
tls=$(run "$dtrace" -q -n 'syscall::getppid:entry { self->ts = timestamp; }
  syscall::getppid:return /self->ts/ { @ = sum(timestamp - self->ts); }' -c "$loop $calls")
printf 'getppid, no tracing:                     %6.1f ns/call\n' "$base"
printf 'dtrace, predicate /0/ (empty program):   %6.1f ns/call  (+%.1f)\n' "$empty" "$(echo "$empty - $base" | bc)"
printf 'dtrace, @[execname] = count():           %6.1f ns/call  (+%.1f)\n' "$agg" "$(echo "$agg - $base" | bc)"
printf 'dtrace, self->ts at entry, sum at return: %5.1f ns/call  (+%.1f)\n' "$tls" "$(echo "$tls - $base" | bc)"
if command -v bpftrace >/dev/null; then
  bempty=$(run bpftrace -e 'tracepoint:syscalls:sys_enter_getppid { }' -c "$loop $calls")
  bagg=$(run bpftrace -e 'tracepoint:syscalls:sys_enter_getppid { @[comm] = count(); }' -c "$loop $calls")
  btls=$(run bpftrace -e 'tracepoint:syscalls:sys_enter_getppid { @ts[tid] = nsecs; }
    tracepoint:syscalls:sys_exit_getppid /@ts[tid]/ { @ = sum(nsecs - @ts[tid]); }' -c "$loop $calls")
  printf 'bpftrace, empty program:                 %6.1f ns/call  (+%.1f)\n' "$bempty" "$(echo "$bempty - $base" | bc)"
  printf 'bpftrace, @[comm] = count():             %6.1f ns/call  (+%.1f)\n' "$bagg" "$(echo "$bagg - $base" | bc)"
  printf 'bpftrace, @ts[tid] at entry, sum at exit: %5.1f ns/call  (+%.1f)\n' "$btls" "$(echo "$btls - $base" | bc)"
  printf 'added cost, dtrace / bpftrace:           %6.2f\n' "$(echo "($agg - $base) / ($bagg - $base)" | bc -l)"
fi
printf 'added cost, aggregation / empty program: %6.2f\n' "$(echo "($agg - $base) / ($empty - $base)" | bc -l)"
