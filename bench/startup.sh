#!/usr/bin/env bash
# Start-up wall time and peak RSS of the smallest complete dtrace run,
# side by side with bpftrace when it is installed. Needs root.
#   bench/startup.sh [path/to/dtrace]
set -euo pipefail
dtrace=${1:-$(dirname "$0")/../build/dtrace}
runs=${RUNS:-20}
. "$(dirname "$0")/lib.sh"

stats=$(mktemp)
trap 'rm -f "$stats"' EXIT
measure() {  # prints the median wall time and the largest peak RSS over $runs runs
  local rss=0 r
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$stats" -f '%M' "$@" >/dev/null 2>&1
    r=$(tail -1 "$stats")
    (( r > rss )) && rss=$r
  done
  printf '%s ms wall, %.1f MB peak RSS\n' "$(median_wall_ms "$@")" "$(echo "$rss / 1024" | bc -l)"
}

echo "dtrace   -qn 'BEGIN { exit(0); }':   $(measure "$dtrace" -qn 'BEGIN { exit(0); }')"
if command -v bpftrace >/dev/null; then
  echo "bpftrace -e 'BEGIN { exit(); }':     $(measure bpftrace -e 'BEGIN { exit(); }')"
fi
# One kernel tracepoint, and every probe listed.
echo "dtrace   sdt:sched::sched_process_exec, then exit: $(measure "$dtrace" -qn \
  'sdt:sched::sched_process_exec {} BEGIN { exit(0); }')"
if command -v bpftrace >/dev/null; then
  echo "bpftrace tracepoint:sched:sched_process_exec, then exit: $(measure bpftrace -e \
    'tracepoint:sched:sched_process_exec {} BEGIN { exit(); }')"
fi
echo "dtrace   -l:                          $(measure "$dtrace" -l)"
if command -v bpftrace >/dev/null; then
  echo "bpftrace -l:                          $(measure bpftrace -l)"
fi
