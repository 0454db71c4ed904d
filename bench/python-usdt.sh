#!/usr/bin/env bash
# Debian's python3 with its USDT probes: Python-level calls per second of
# a loop untraced, and traced by `python$target:::line` (python 3.11's
# function-entry fires only for frames entered from C, so `line`, which
# fires on every line of every function, is the probe measured), against
# bpftrace's usdt equivalent. Medians of $RUNS runs.
#   bench/python-usdt.sh [path/to/dtrace]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dtrace=${1:-$here/../build/dtrace}
runs=${RUNS:-5}
python=/usr/bin/python3.11
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/loop.py" <<'PY'
import time
def f(i):
    return i + 1
n = 300000
t = time.perf_counter()
for i in range(n):
    f(i)
print(int(n / (time.perf_counter() - t)))
PY
. "$(dirname "$0")/lib.sh"
base=() dt=() bt=()
for _ in $(seq "$runs"); do
  base+=("$("$python" "$work/loop.py" | last)")
  dt+=("$("$dtrace" -q -n 'python$target:::line { @ = count(); }' -c "$python $work/loop.py" 2>/dev/null | last)")
  if command -v bpftrace >/dev/null; then
    bt+=("$(bpftrace -e "usdt:$python:python:line { @ = count(); }" -c "$python $work/loop.py" 2>/dev/null | last)")
  fi
done
printf 'python calls/s, untraced:          %10d\n' "$(printf '%s\n' "${base[@]}" | median)"
printf 'python calls/s, dtrace line:       %10d\n' "$(printf '%s\n' "${dt[@]}" | median)"
if [ ${#bt[@]} -gt 0 ]; then
  printf 'python calls/s, bpftrace line:     %10d\n' "$(printf '%s\n' "${bt[@]}" | median)"
fi
