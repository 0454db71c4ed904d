#!/usr/bin/env bash
# Added cost per getppid(2) call of a latency histogram: entry -> return
# time in a thread-local, quantize() of the difference, against no tracing
# and bpftrace's hist() equivalent (when bpftrace is installed). The loop
# reports its own ns per call, so tracer start-up and exit are not counted.
# Medians of $RUNS runs, configurations interleaved.
#   bench/quantize-latency.sh [path/to/dtrace]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dtrace=${1:-$here/../build/dtrace}
runs=${RUNS:-5}
calls=${CALLS:-2000000}
loop=$(mktemp)
trap 'rm -f "$loop"' EXIT
cc -O2 -o "$loop" "$here/getppid_loop.c"

dscript='syscall::getppid:entry { self->ts = timestamp; }
syscall::getppid:return /self->ts/ { @ = quantize(timestamp - self->ts); self->ts = 0; }'
bscript='tracepoint:syscalls:sys_enter_getppid { @ts[tid] = nsecs; }
tracepoint:syscalls:sys_exit_getppid /@ts[tid]/ { @ = hist(nsecs - @ts[tid]); delete(@ts[tid]); }'

. "$(dirname "$0")/lib.sh"
base=() dt=() bt=()
for _ in $(seq "$runs"); do
  base+=("$("$loop" "$calls" | last)")
  dt+=("$("$dtrace" -q -n "$dscript" -c "$loop $calls" 2>/dev/null | last)")
  if command -v bpftrace >/dev/null; then
    bt+=("$(bpftrace -e "$bscript" -c "$loop $calls" 2>/dev/null | last)")
  fi
done
b=$(printf '%s\n' "${base[@]}" | median)
d=$(printf '%s\n' "${dt[@]}" | median)
printf 'getppid, no tracing:              %6.1f ns/call\n' "$b"
printf 'dtrace, quantize() of latency:    %6.1f ns/call  (+%.1f)\n' "$d" "$(echo "$d - $b" | bc)"
if [ ${#bt[@]} -gt 0 ]; then
  t=$(printf '%s\n' "${bt[@]}" | median)
  printf 'bpftrace, hist() of latency:      %6.1f ns/call  (+%.1f)\n' "$t" "$(echo "$t - $b" | bc)"
  printf 'added cost, dtrace / bpftrace:    %6.2f\n' "$(echo "($d - $b) / ($t - $b)" | bc -l)"
fi
