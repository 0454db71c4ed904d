# Sourced by the cleanup tests: counts the kernel objects a dtrace run left
# behind, without counting those of anything else running on the machine.
#
# Our processes are those of this test's process group: the test script,
# the dtrace it starts and that dtrace's -c children. A BPF program, map,
# link or BTF object is left behind by a run when it was created after
# mark_objects (the kernel hands out increasing ids) and it is still held
# by one of our processes, or pinned in a BPF file system: the only ways
# an object outlives the process that made it (an attachment is itself a
# link or perf event held by a process). A perf event with a BPF program is
# ours when one of our processes holds it; a uprobe event in tracefs when
# it names one of the workloads. What an exited process held may stay a
# little while the kernel frees it (the maps of a program freed after a
# grace period, seconds on a busy machine), held by nothing: not counted.
# The counts are polled for up to ten seconds for the process to be gone.

our_pgid=$(ps -o pgid= $$ | tr -d ' ')

mark_objects() {
  local kind
  for kind in prog map link btf; do
    eval "mark_$kind=\$(bpftool $kind show -j | jq '[.[].id] | max // 0')"
  done
}

# {"prog": [ids], "map": [...], "link": [...], "btf": [...]}: the BPF objects
# the fds of the given processes refer to.
held_by() {
  local pid
  for pid in "$@"; do
    cat /proc/"$pid"/fdinfo/* 2>/dev/null
  done | awk '$1 ~ /^(prog|map|link|btf)_id:$/ { sub(/_id:$/, "", $1); print $1, $2 }' |
    jq -R -s '[split("\n")[] | select(length > 0) | split(" ")] |
      reduce .[] as $p ({prog: [], map: [], link: [], btf: []}; .[$p[0]] += [$p[1] | tonumber])'
}

# Programs, maps, links, BTF objects, perf events and uprobe events left:
# "P M L B E U".
count_left() {
  local pids ours kind mark
  pids=$(pgrep -g "$our_pgid" | jq -s -c .)
  ours=$(held_by $(pgrep -g "$our_pgid"))
  {
    for kind in prog map link btf; do
      eval "mark=\$mark_$kind"
      bpftool -f "$kind" show -j | jq --argjson mark "$mark" --argjson ours "$ours" --arg kind "$kind" '
        [.[] | select(.id > $mark) | . as $object |
         select(($ours[$kind] | any(.[]; . == $object.id)) or ((.pinned // []) | length > 0))] |
        length'
    done
    bpftool perf show -j | jq --argjson pids "$pids" '[.[] | select(.pid as $p | $pids | any(.[]; . == $p))] | length'
    grep -c -F "$WORKLOADS/" /sys/kernel/tracing/uprobe_events || true
  } | tr '\n' ' '
}

# What a run left once its dtrace has gone, polled until nothing is left.
describe_left() {
  local left deadline=$((SECONDS + 10))
  while :; do
    left=$(count_left)
    [ "$left" = "0 0 0 0 0 0 " ] || [ "$SECONDS" -ge "$deadline" ] && break
    sleep 0.1
  done
  set -- $left
  echo "$1 programs, $2 maps, $3 links, $4 BTF, $5 perf events, $6 uprobe events"
}

# Whether a dtrace that is running holds programs, maps, links and perf
# events: the objects the checks above look for are there to be seen.
describe_held() {
  set -- $(count_left)
  local yes_no=(no yes)
  echo "programs ${yes_no[$(($1 > 0))]}, maps ${yes_no[$(($2 > 0))]}," \
    "links ${yes_no[$(($3 > 0))]}, perf events ${yes_no[$(($5 > 0))]}"
}

# What became of a process: gone (exited and reaped, or a zombie about to
# be), or still there, running or stopped (an orphan).
describe_process() {
  local pid=$1 i state
  for i in $(seq 60); do
    state=$(awk '{ print $3 }' /proc/"$pid"/stat 2>/dev/null)
    [ -z "$state" ] || [ "$state" = Z ] && break
    sleep 0.05
  done
  case "$state" in
    "" | Z) echo "gone" ;;
    T | t) echo "left stopped" ;;
    *) echo "left running" ;;
  esac
}

# Processes of ours still running a workload or dtrace: none once a run is
# over (its -c child neither orphaned nor stopped).
count_processes() {
  local i n
  for i in $(seq 60); do
    n=$(pgrep -g "$our_pgid" -f "^($DTRACE|$WORKLOADS/)" | wc -l)
    [ "$n" -eq 0 ] && break
    sleep 0.05
  done
  echo "$n"
}

# Waits for a line in a file that a background dtrace writes.
wait_for_line() {
  local file=$1 pattern=$2 i
  for i in $(seq 200); do
    grep -q "$pattern" "$file" 2>/dev/null && return 0
    sleep 0.05
  done
  return 1
}
