#!/usr/bin/env bash
# Attach and detach of every libc entry probe (some 3,600 functions, as
# libc's symbols and MiniDebugInfo list them): wall time of a run of
# /bin/true under `pid$target:libc.so.6::entry`, against bpftrace's
# `uprobe:libc:*` (when installed; it attaches only libc's exported
# functions) and against the same dtrace run with no probe. Medians of
# $RUNS runs.
#   bench/uprobe-attach.sh [path/to/dtrace]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dtrace=${1:-$here/../build/dtrace}
runs=${RUNS:-5}
. "$(dirname "$0")/lib.sh"
probes=$("$dtrace" -l -n 'pid$target:libc.so.6::entry' -c /bin/true | tail -n +2 | wc -l)
none=() dt=() bt=()
for _ in $(seq "$runs"); do
  none+=("$(seconds "$dtrace" -q -n 'BEGIN {}' -c /bin/true)")
  dt+=("$(seconds "$dtrace" -q -n 'pid$target:libc.so.6::entry {}' -c /bin/true)")
  if command -v bpftrace >/dev/null; then
    bt+=("$(seconds timeout 120 bpftrace -e 'uprobe:libc:* {}' -c /bin/true)")
  fi
done
printf 'libc entry probes:                 %d\n' "$probes"
printf 'dtrace, no probe:                  %6.3f s\n' "$(printf '%s\n' "${none[@]}" | median)"
printf 'dtrace, every libc entry:          %6.3f s\n' "$(printf '%s\n' "${dt[@]}" | median)"
if [ ${#bt[@]} -gt 0 ]; then
  printf 'bpftrace, uprobe:libc:*:           %6.3f s\n' "$(printf '%s\n' "${bt[@]}" | median)"
fi
