#!/usr/bin/env bash
# What enabling syscall::getppid:entry costs every OTHER system call: a
# getpid(2) loop runs while getppid is traced, by dtrace (one raw
# tracepoint for all system calls, a dispatcher that tail-calls by number)
# and by bpftrace (the per-syscall perf tracepoint sys_enter_getppid),
# against no tracing and the floor of a raw tracepoint whose program
# returns at once unless the call is getppid (bench/raw_tp_floor.c -n).
# The loop reports its own CPU time per call; it is pinned to CPU $PIN
# (default 1). Medians of $RUNS interleaved rounds.
#   bench/syscall-dispatch.sh [path/to/dtrace]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dtrace=${1:-$here/../build/dtrace}
runs=${RUNS:-7}
calls=${CALLS:-2000000}
. "$here/lib.sh"
build_loops
getpid=$(printf '#include <sys/syscall.h>\nSYS_getpid\n' | cc -E -P - | tail -1)
getppid=$(printf '#include <sys/syscall.h>\nSYS_getppid\n' | cc -E -P - | tail -1)
loop="${pinned}$tmp/loop $calls $getpid"

base() { $loop; }
floor() { "$tmp/floor" -n "$getppid" $loop; }
dtrace_getppid() { "$dtrace" -q -n 'syscall::getppid:entry { @[execname] = count(); }' -c "$loop"; }
dtrace_return() { "$dtrace" -q -n 'syscall::getppid:return { @[execname] = count(); }' -c "$loop"; }
bpftrace_getppid() { bpftrace -e 'tracepoint:syscalls:sys_enter_getppid { @[comm] = count(); }' -c "$loop"; }
configs=(base floor dtrace_getppid dtrace_return)
command -v bpftrace >/dev/null && configs+=(bpftrace_getppid)
declare -A median
interleaved_medians "${configs[@]}"
b=${median[base]}
printf '%-46s %7.1f ns/call\n' 'getpid, no tracing:' "$b"
show 'raw tracepoint, early-out unless getppid:' "${median[floor]}"
show 'dtrace, syscall::getppid:entry enabled:' "${median[dtrace_getppid]}"
show 'dtrace, syscall::getppid:return enabled:' "${median[dtrace_return]}"
if [ -n "${median[bpftrace_getppid]:-}" ]; then
  show 'bpftrace, sys_enter_getppid enabled:' "${median[bpftrace_getppid]}"
  printf 'added cost, dtrace entry / bpftrace:           %6.2f\n' \
    "$(ratio "${median[dtrace_getppid]}" "${median[bpftrace_getppid]}" "$b")"
fi
printf 'added cost, dtrace entry / raw tracepoint floor: %4.2f\n' \
  "$(ratio "${median[dtrace_getppid]}" "${median[floor]}" "$b")"
