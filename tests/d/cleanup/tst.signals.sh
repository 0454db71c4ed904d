# However dtrace ends (exit(), SIGINT, SIGTERM, SIGHUP, SIGKILL), none of
# its BPF programs, maps, links or perf events remain, and the command it
# started with -c is neither left running (an orphan) nor left stopped.
# (Uprobe events are counted machine-wide: other tests' would count.)
# run alone
. ./objects.sh
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

for how in 'exit()' SIGINT SIGTERM SIGHUP SIGKILL; do
  : >"$out"
  mark_objects
  $DTRACE -q -o "$out" -s probes.d -c "$WORKLOADS/getppid 100000 10" 2>"$err" &
  dtrace=$!
  wait_for_line "$out" '^ready' || echo "$how: dtrace did not start"
  target=$(awk '/^ready/ { print $2 }' "$out")
  echo "before $how: $(describe_held)"
  case "$how" in
    'exit()') kill -0 2147483000 2>/dev/null ;;
    *) kill -s "${how#SIG}" "$dtrace" ;;
  esac
  wait "$dtrace"
  status=$?
  command=$(describe_process "$target")
  echo "after $how: status $status; left $(describe_left); -c command $command"
  cat "$err"
  [ "$command" = gone ] || kill -KILL "$target"  # an orphan the test must not leave either
done
