#!/usr/bin/env bash
# Added cost per firing of syscall::getppid:entry { @[execname] = count(); }
# against no tracing, the floor of any syscall probe (an empty program on
# the sys_enter raw tracepoint, bench/raw_tp_floor.c), dtrace's (almost)
# empty program on the same probe, and bpftrace's equivalents when it is
# installed. Each configuration runs a getppid(2) loop under the tracer;
# the loop reports its own CPU time per call, so tracer start-up and exit
# (and time waiting for a CPU on a shared machine) are not counted. The
# loop is pinned to one CPU (PIN, default 1; PIN= to leave it free).
# Medians of $RUNS interleaved rounds.
#   bench/probe-effect.sh [path/to/dtrace]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dtrace=${1:-$here/../build/dtrace}
runs=${RUNS:-7}
calls=${CALLS:-2000000}
. "$here/lib.sh"
build_loops
loop="${pinned}$tmp/loop $calls"

base() { $loop; }
floor() { "$tmp/floor" $loop; }
dempty() { "$dtrace" -q -n 'syscall::getppid:entry /0/ { }' -c "$loop"; }
dagg() { "$dtrace" -q -n 'syscall::getppid:entry { @[execname] = count(); }' -c "$loop"; }
# A thread-local timestamp at entry, its latency summed at return: the
# variable is stored again on every call (the element exists after the first).
dtls() {
  "$dtrace" -q -n 'syscall::getppid:entry { self->ts = timestamp; }
    syscall::getppid:return /self->ts/ { @ = sum(timestamp - self->ts); }' -c "$loop"
}
bempty() { bpftrace -e 'tracepoint:syscalls:sys_enter_getppid { }' -c "$loop"; }
bagg() { bpftrace -e 'tracepoint:syscalls:sys_enter_getppid { @[comm] = count(); }' -c "$loop"; }
btls() {
  bpftrace -e 'tracepoint:syscalls:sys_enter_getppid { @ts[tid] = nsecs; }
    tracepoint:syscalls:sys_exit_getppid /@ts[tid]/ { @ = sum(nsecs - @ts[tid]); }' -c "$loop"
}
configs=(base floor dempty dagg dtls)
command -v bpftrace >/dev/null && configs+=(bempty bagg btls)
declare -A median
interleaved_medians "${configs[@]}"
b=${median[base]}
printf '%-46s %7.1f ns/call\n' 'getppid, no tracing:' "$b"
show 'raw tracepoint floor (empty sys_enter prog):' "${median[floor]}"
show 'dtrace, predicate /0/ (empty program):' "${median[dempty]}"
show 'dtrace, @[execname] = count():' "${median[dagg]}"
show 'dtrace, self->ts at entry, sum at return:' "${median[dtls]}"
if [ -n "${median[bagg]:-}" ]; then
  show 'bpftrace, empty program:' "${median[bempty]}"
  show 'bpftrace, @[comm] = count():' "${median[bagg]}"
  show 'bpftrace, @ts[tid] at entry, sum at exit:' "${median[btls]}"
  printf 'added cost, dtrace / bpftrace, count():      %6.2f\n' "$(ratio "${median[dagg]}" "${median[bagg]}" "$b")"
  printf 'added cost, dtrace / bpftrace, self->ts:     %6.2f\n' "$(ratio "${median[dtls]}" "${median[btls]}" "$b")"
fi
printf 'added cost, empty program / raw tp floor:    %6.2f\n' "$(ratio "${median[dempty]}" "${median[floor]}" "$b")"
printf 'added cost, count() / empty program:         %6.2f\n' "$(ratio "${median[dagg]}" "${median[dempty]}" "$b")"
