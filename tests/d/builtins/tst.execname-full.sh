# execname is the whole comm, all 15 characters of it, in a syscall probe's
# record, predicate and aggregation key alike (read straight from the task,
# not by bpf_get_current_comm), and in other probes too.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp "$WORKLOADS/getppid" "$dir/abcdefghijklmnopqrs"
$DTRACE -q -n '
syscall::getppid:entry /pid == $target && !done/ {
  printf("%s %d\n", execname, strlen(execname));
  done = 1;
}
syscall::getppid:entry /execname == "abcdefghijklmno"/ { @match = count(); }
syscall::getppid:return /pid == $target/ { @[execname] = count(); }
proc:::exit /pid == $target/ { printf("exit %s\n", execname); }' -c "$dir/abcdefghijklmnopqrs 3"
