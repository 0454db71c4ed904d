#!/usr/bin/env bash
# Two dtrace builds side by side with bpftrace, in one run: the added cost
# per getppid(2) of an (almost) empty program, @[execname] = count(), a
# self->ts latency sum() and quantize(), against the raw tracepoint floor
# (bench/raw_tp_floor.c). Every configuration runs once per round, all in
# turn; a figure is the median over $RUNS rounds of that round's cost over
# the round's own untraced loop (paired), the loop's own CPU time per call.
# Before each run it waits (up to 30 s) until no other tracer has a program
# on a syscall tracepoint (bpftool), as other users of a shared machine may.
#   bench/probe-cost-ab.sh path/to/dtrace-before path/to/dtrace-after
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
B=${1:?usage: probe-cost-ab.sh dtrace-before dtrace-after}
A=${2:?usage: probe-cost-ab.sh dtrace-before dtrace-after}
runs=${RUNS:-9}
calls=${CALLS:-1000000}
. "$here/lib.sh"
build_loops
loop="${pinned}$tmp/loop $calls"

count='syscall::getppid:entry { @[execname] = count(); }'
tls='syscall::getppid:entry { self->ts = timestamp; }
  syscall::getppid:return /self->ts/ { @ = sum(timestamp - self->ts); }'
q='syscall::getppid:entry { self->ts = timestamp; }
  syscall::getppid:return /self->ts/ { @ = quantize(timestamp - self->ts); self->ts = 0; }'
bcount='tracepoint:syscalls:sys_enter_getppid { @[comm] = count(); }'
btls='tracepoint:syscalls:sys_enter_getppid { @ts[tid] = nsecs; }
  tracepoint:syscalls:sys_exit_getppid /@ts[tid]/ { @ = sum(nsecs - @ts[tid]); }'
bq='tracepoint:syscalls:sys_enter_getppid { @ts[tid] = nsecs; }
  tracepoint:syscalls:sys_exit_getppid /@ts[tid]/ { @ = hist(nsecs - @ts[tid]); delete(@ts[tid]); }'
base() { $loop; }
floor() { "$tmp/floor" $loop; }
b_empty() { "$B" -q -n 'syscall::getppid:entry /0/ { }' -c "$loop"; }
a_empty() { "$A" -q -n 'syscall::getppid:entry /0/ { }' -c "$loop"; }
b_count() { "$B" -q -n "$count" -c "$loop"; }
a_count() { "$A" -q -n "$count" -c "$loop"; }
bt_count() { bpftrace -e "$bcount" -c "$loop"; }
b_tls() { "$B" -q -n "$tls" -c "$loop"; }
a_tls() { "$A" -q -n "$tls" -c "$loop"; }
bt_tls() { bpftrace -e "$btls" -c "$loop"; }
b_quantize() { "$B" -q -n "$q" -c "$loop"; }
a_quantize() { "$A" -q -n "$q" -c "$loop"; }
bt_quantize() { bpftrace -e "$bq" -c "$loop"; }

quiet() {
  for _ in $(seq 60); do
    [ -z "$(bpftool prog show 2>/dev/null | grep -E '^[0-9]+: (tracepoint|kprobe|perf_event)')$(
      bpftool link show 2>/dev/null | grep -E "tp 'sys_e")" ] && return
    sleep 0.5
  done
}
configs=(floor b_empty a_empty b_count a_count bt_count b_tls a_tls bt_tls b_quantize a_quantize
  bt_quantize)
declare -A added
for _ in $(seq "$runs"); do
  quiet
  b=$(base | last)
  for c in "${configs[@]}"; do
    quiet
    added[$c]+="$(echo "$("$c" 2>/dev/null | last) - $b" | bc) "
  done
done
declare -A m
for c in "${configs[@]}"; do m[$c]=$(printf '%s\n' ${added[$c]} | median); done
printf '%-28s %9s %9s %9s\n' 'added ns per getppid' before after bpftrace
printf '%-28s %9.1f\n' 'raw tracepoint floor' "${m[floor]}"
printf '%-28s %9.1f %9.1f\n' 'predicate /0/' "${m[b_empty]}" "${m[a_empty]}"
for w in count tls quantize; do
  printf '%-28s %9.1f %9.1f %9.1f\n' "$w" "${m[b_$w]}" "${m[a_$w]}" "${m[bt_$w]}"
done
r() { echo "scale=2; $1 / $2" | bc -l; }
printf '%-28s %9.2f %9.2f\n' 'empty / floor' "$(r "${m[b_empty]}" "${m[floor]}")" \
  "$(r "${m[a_empty]}" "${m[floor]}")"
for w in count tls quantize; do
  printf '%-28s %9.2f %9.2f\n' "$w: dtrace / bpftrace" "$(r "${m[b_$w]}" "${m[bt_$w]}")" \
    "$(r "${m[a_$w]}" "${m[bt_$w]}")"
done
