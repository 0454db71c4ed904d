#!/usr/bin/env bash
# Added cost per getppid(2) call of a latency histogram: entry -> return
# time in a thread-local, quantize() of the difference, against no tracing
# and bpftrace's hist() equivalent (when bpftrace is installed). The loop
# reports its own CPU time per call, so tracer start-up and exit are not
# counted; it is pinned to CPU $PIN (default 1). Medians of $RUNS
# interleaved rounds.
#   bench/quantize-latency.sh [path/to/dtrace]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dtrace=${1:-$here/../build/dtrace}
runs=${RUNS:-7}
calls=${CALLS:-2000000}
. "$here/lib.sh"
build_loops
loop="${pinned}$tmp/loop $calls"

dscript='syscall::getppid:entry { self->ts = timestamp; }
syscall::getppid:return /self->ts/ { @ = quantize(timestamp - self->ts); self->ts = 0; }'
bscript='tracepoint:syscalls:sys_enter_getppid { @ts[tid] = nsecs; }
tracepoint:syscalls:sys_exit_getppid /@ts[tid]/ { @ = hist(nsecs - @ts[tid]); delete(@ts[tid]); }'

base() { $loop; }
dquantize() { "$dtrace" -q -n "$dscript" -c "$loop"; }
bhist() { bpftrace -e "$bscript" -c "$loop"; }
configs=(base dquantize)
command -v bpftrace >/dev/null && configs+=(bhist)
declare -A median
interleaved_medians "${configs[@]}"
b=${median[base]} d=${median[dquantize]}
printf 'getppid, no tracing:              %6.1f ns/call\n' "$b"
printf 'dtrace, quantize() of latency:    %6.1f ns/call  (+%.1f)\n' "$d" "$(echo "$d - $b" | bc)"
if [ -n "${median[bhist]:-}" ]; then
  t=${median[bhist]}
  printf 'bpftrace, hist() of latency:      %6.1f ns/call  (+%.1f)\n' "$t" "$(echo "$t - $b" | bc)"
  printf 'added cost, dtrace / bpftrace:    %6.2f\n' "$(ratio "$d" "$t" "$b")"
fi
