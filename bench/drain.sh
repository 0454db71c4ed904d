#!/usr/bin/env bash
# Principal-buffer throughput: printf records drained and printed, side by
# side with bpftrace when it is installed. A getppid(2) loop fires the probe
# $CALLS times; each tracer prints one line per firing to a file.
#
# Two figures per tracer (medians of $RUNS runs, tracers interleaved):
# - records per second of the whole run, workload included: bound by how
#   fast the loop can fire a probe, so it understates a fast consumer;
# - the drain capacity: records per second of the tracer's own CPU time
#   (its user + system time, less the workload's, which the loop reports,
#   less what the same command costs with no record, start-up and exit;
#   the loop's CPU time is its ns per call, which it reports, times calls).
# Drops are counted from each tracer's own report.
#   bench/drain.sh [path/to/dtrace]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dtrace=${1:-$here/../build/dtrace}
calls=${CALLS:-2000000}
runs=${RUNS:-3}
loop=$(mktemp) out=$(mktemp) err=$(mktemp) stats=$(mktemp)
trap 'rm -f "$loop" "$out" "$err" "$stats"' EXIT
cc -O2 -o "$loop" "$here/getppid_loop.c"
. "$here/lib.sh"

dscript='syscall::getppid:entry /pid == $target/ { printf("%d %d\n", tid, timestamp); }'
bscript='tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { printf("%d %d\n", tid, nsecs); }'

# One run of TRACER's command with N calls: "records drops wall tracer_cpu".
one() {
  local n=$1
  shift
  local t0 t1
  t0=$(date +%s%N)
  /usr/bin/time -o "$stats" -f '%U %S' "$@" "$loop $n" >"$out" 2>"$err" || true
  t1=$(date +%s%N)
  local records drops total workload
  records=$(grep -cE '^[0-9]+ [0-9]+$' "$out" || true)
  drops=$(awk '/drops? on CPU/ { s += $2 } /^Lost [0-9]+ events/ { s += $2 } END { print s + 0 }' "$err")
  total=$(tail -1 "$stats" | awk '{ print $1 + $2 }')
  workload=$(awk -v n="$n" '/^[0-9.]+$/ { w = $1 * n / 1e9 } END { print w + 0 }' "$out")
  echo "$records $drops $(echo "($t1 - $t0) / 1000000000" | bc -l) $(echo "$total - ${workload:-0}" | bc -l)"
}

# Medians over $runs of: records/s of the run, and records per tracer CPU
# second (the start-up's CPU, from a run with no call, taken off).
report() {
  local name=$1
  shift
  local rates=() caps=() drops=() idle
  idle=$(for _ in $(seq "$runs"); do one 0 "$@" | awk '{ print $4 }'; done | median)
  for _ in $(seq "$runs"); do
    read -r records dropped wall cpu < <(one "$calls" "$@")
    rates+=("$(echo "$records / $wall / 1000000" | bc -l)")
    caps+=("$(echo "$records / ($cpu - $idle) / 1000000" | bc -l)")
    drops+=("$dropped")
  done
  rate=$(printf '%s\n' "${rates[@]}" | median)
  cap=$(printf '%s\n' "${caps[@]}" | median)
  printf '%-9s %6.2f M records/s whole run, %6.2f M records per CPU second, drops %s\n' \
    "$name" "$rate" "$cap" "$(printf '%s ' "${drops[@]}")"
  eval "${name}_cap=$cap"
}

report dtrace "$dtrace" -q -n "$dscript" -c
if command -v bpftrace >/dev/null; then
  report bpftrace bpftrace -e "$bscript" -c
  printf 'drain capacity, dtrace / bpftrace: %.1f\n' "$(echo "$dtrace_cap / $bpftrace_cap" | bc -l)"
fi
