#!/usr/bin/env bash
# Where a dtrace run's resident memory is when tracing ends: the Rss of
# /proc/PID/smaps summed by kind (BPF maps, the dtrace binary, shared
# libraries, heap, other anonymous memory, the rest). gdb stops the process
# where the consumer reads the principal buffers a last time
# (PrincipalBuffers::finish), when everything it maps is still mapped.
# Needs root and gdb.
#   bench/rss-breakdown.sh [path/to/dtrace] [dtrace arguments...]
#   (default: -qn 'BEGIN { exit(0); }')
set -euo pipefail
dtrace=$(realpath "${1:-$(dirname "$0")/../build/dtrace}")
shift || true
(( $# )) || set -- -qn 'BEGIN { exit(0); }'
smaps=$(mktemp)
trap 'rm -f "$smaps"' EXIT
gdb -batch -q -ex 'break dtrace::consume::PrincipalBuffers::finish' -ex run \
  -ex "python import gdb, shutil; shutil.copy('/proc/%d/smaps' % gdb.selected_inferior().pid, '$smaps')" \
  -ex kill --args "$dtrace" "$@" >/dev/null 2>&1 </dev/null
awk -v binary="$dtrace" '
  /^[0-9a-f]+-[0-9a-f]+ / {
    name = $6
    if (name ~ /bpf-map/) kind = "bpf maps"
    else if (name == binary) kind = "binary"
    else if (name ~ /\.so/) kind = "libraries"
    else if (name == "[heap]") kind = "heap"
    else if (name == "") kind = "anonymous"
    else if (name == "[stack]") kind = "stack"
    else kind = "other"
    next
  }
  /^Rss:/ { kb[kind] += $2; total += $2 }
  END {
    n = split("bpf maps,binary,libraries,heap,anonymous,stack,other", order, ",")
    for (i = 1; i <= n; i++) printf "%-10s %8.2f MiB\n", order[i], kb[order[i]] / 1024
    printf "%-10s %8.2f MiB\n", "total", total / 1024
  }' "$smaps"
