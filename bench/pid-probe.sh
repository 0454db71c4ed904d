#!/usr/bin/env bash
# Added cost per call of a pid entry probe that counts, against no tracing
# and bpftrace's uprobe equivalent (when bpftrace is installed): the loop
# reports its own ns per call, so start-up and exit are not counted.
# Medians of $RUNS runs, configurations interleaved.
#   bench/pid-probe.sh [path/to/dtrace]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dtrace=${1:-$here/../build/dtrace}
runs=${RUNS:-5}
calls=${CALLS:-500000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
loop=$work/call_loop
cc -O2 -o "$loop" "$here/call_loop.c"

. "$(dirname "$0")/lib.sh"
base=() dt=() bt=()
for _ in $(seq "$runs"); do
  base+=("$("$loop" "$calls" 2>/dev/null | last)")
  dt+=("$("$dtrace" -q -n 'pid$target:a.out:traced_call:entry { @ = count(); }' \
    -c "$loop $calls" 2>/dev/null | last)")
  if command -v bpftrace >/dev/null; then
    bt+=("$(bpftrace -e "uprobe:$loop:traced_call { @ = count(); }" -c "$loop $calls" \
      2>/dev/null | last)")
  fi
done
b=$(printf '%s\n' "${base[@]}" | median)
d=$(printf '%s\n' "${dt[@]}" | median)
printf 'call, no tracing:                 %8.1f ns/call\n' "$b"
printf 'dtrace, pid entry count():        %8.1f ns/call  (+%.1f)\n' "$d" "$(echo "$d - $b" | bc)"
if [ ${#bt[@]} -gt 0 ]; then
  t=$(printf '%s\n' "${bt[@]}" | median)
  printf 'bpftrace, uprobe count():         %8.1f ns/call  (+%.1f)\n' "$t" "$(echo "$t - $b" | bc)"
  printf 'added cost, dtrace / bpftrace:    %8.2f\n' "$(echo "($d - $b) / ($t - $b)" | bc -l)"
fi
