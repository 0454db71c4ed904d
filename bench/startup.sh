#!/usr/bin/env bash
# Start-up wall time and peak RSS of the smallest complete dtrace run,
# side by side with bpftrace when it is installed. Needs root.
#   bench/startup.sh [path/to/dtrace]
set -euo pipefail
dtrace=${1:-$(dirname "$0")/../build/dtrace}
runs=${RUNS:-20}

stats=$(mktemp) json=$(mktemp)
trap 'rm -f "$stats" "$json"' EXIT
# The median wall time over $runs runs: hyperfine's (Debian's hyperfine,
# no shell between it and the command) when it is installed, else the
# shell's clock around each run, which adds a few ms of its own.
median_wall_ms() {
  if command -v hyperfine >/dev/null; then
    hyperfine -N -w 2 -r "$runs" --export-json "$json" "$(printf '%q ' "$@")" >/dev/null 2>&1
    python3 -c 'import json,sys; print("%.1f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1000))' "$json"
    return
  fi
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    echo "$(( (t1 - t0) / 1000 ))"
  done | sort -n | awk '{a[NR]=$1} END {printf "%.1f\n", a[int((NR+1)/2)] / 1000}'
}
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
