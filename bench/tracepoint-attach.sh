#!/usr/bin/env bash
# Attach and detach of many kernel tracepoints: wall time of a dtrace run
# that enables every tracepoint of a category (sdt:xfs::, some 600 on
# Linux 6.x) and exits at once, against bpftrace's `tracepoint:xfs:*`
# (perf-event tracepoints; when installed) and against the same dtrace run
# with no probe. Medians of $RUNS runs.
#   bench/tracepoint-attach.sh [path/to/dtrace] [category]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dtrace=${1:-$here/../build/dtrace}
category=${2:-xfs}
runs=${RUNS:-5}
. "$(dirname "$0")/lib.sh"
probes=$("$dtrace" -l -n "sdt:$category::" | tail -n +2 | wc -l)
none=() dt=() bt=()
for _ in $(seq "$runs"); do
  none+=("$(seconds "$dtrace" -q -n 'BEGIN { exit(0); }')")
  dt+=("$(seconds "$dtrace" -q -n "sdt:$category:: {} BEGIN { exit(0); }")")
  if command -v bpftrace >/dev/null; then
    bt+=("$(BPFTRACE_MAX_PROBES=10000 seconds timeout 300 bpftrace -e "tracepoint:$category:* {} BEGIN { exit(); }")")
  fi
done
printf 'tracepoints in %s:                %d\n' "$category" "$probes"
printf 'dtrace, no probe:                  %6.3f s\n' "$(printf '%s\n' "${none[@]}" | median)"
printf 'dtrace, every %s tracepoint:      %6.3f s\n' "$category" "$(printf '%s\n' "${dt[@]}" | median)"
if [ ${#bt[@]} -gt 0 ]; then
  printf 'bpftrace, tracepoint:%s:*:        %6.3f s\n' "$category" "$(printf '%s\n' "${bt[@]}" | median)"
fi
