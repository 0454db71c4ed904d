#!/usr/bin/env bash
# Added cost per context switch of sched:::on-cpu { @[execname] = count(); }
# against no tracing and bpftrace's tracepoint:sched:sched_switch
# { @[comm] = count(); } (when installed). The workload ping-pongs a byte
# between two processes pinned to one CPU (two switches per round trip) and
# reports its own ns per round trip. Medians of $RUNS runs.
#   bench/sched-oncpu.sh [path/to/dtrace]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dtrace=${1:-$here/../build/dtrace}
runs=${RUNS:-5}
trips=${TRIPS:-200000}
loop=$(mktemp)
trap 'rm -f "$loop"' EXIT
cc -O2 -o "$loop" "$here/pingpong.c"

. "$(dirname "$0")/lib.sh"
run() { median_of_runs "$@"; }  # "$@" runs $loop, which prints its ns/round trip

base=$(run "$loop" "$trips")
dt=$(run "$dtrace" -q -n 'sched:::on-cpu { @[execname] = count(); }' -c "$loop $trips")
printf 'round trip (2 switches), no tracing:     %7.1f ns\n' "$base"
printf 'dtrace, sched:::on-cpu count():          %7.1f ns  (+%.1f per switch)\n' "$dt" \
  "$(echo "($dt - $base) / 2" | bc -l)"
if command -v bpftrace >/dev/null; then
  bt=$(run bpftrace -e 'tracepoint:sched:sched_switch { @[comm] = count(); }' -c "$loop $trips")
  printf 'bpftrace, sched_switch count():          %7.1f ns  (+%.1f per switch)\n' "$bt" \
    "$(echo "($bt - $base) / 2" | bc -l)"
  printf 'added cost, dtrace / bpftrace:           %7.2f\n' \
    "$(echo "($dt - $base) / ($bt - $base)" | bc -l)"
fi
