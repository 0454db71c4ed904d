# The -c command dies mid-trace (SIGKILL, from outside): dtrace says so,
# runs END and prints its aggregations, and exits 0, as DTrace does when
# its command exits.
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
$DTRACE -o "$out" -n 'BEGIN { printf("ready %d\n", $target); }
  syscall::getppid:entry /pid == $target/ { @calls[execname] = count(); }
  END { printf("end\n"); }' -c "$WORKLOADS/getppid 100000 10" 2>"$err" &
dtrace=$!
for i in $(seq 200); do grep -q ready "$out" && break; sleep 0.05; done
target=$(awk '/ready/ { print $NF }' "$out")
sleep 0.3  # some calls to count
kill -KILL "$target"
wait $dtrace
echo "status $?"
# The records' headings, and the number of calls (which depends on timing).
sed -E -e "s/ready $target/ready PID/" -e 's/^(  getppid +)[0-9]+$/\1N/' -e 's/^ +[0-9]+( +[0-9]+ )/  CPU\1/' "$out"
sed -E "s/pid $target /pid PID /" "$err"
