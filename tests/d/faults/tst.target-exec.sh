# The -c command execs another program mid-trace: tracing follows the
# process ($target keeps its pid, the new program's execname is seen) and
# ends when the new program exits, with the aggregations printed.
err=$(mktemp)
trap 'rm -f "$err"' EXIT
$DTRACE -n 'syscall::getppid:entry /pid == $target/ { @[execname, "getppid"] = count(); }
  pid$target:libc.so.6:execve:entry { @[execname, "execve"] = count(); }' \
  -c "/usr/bin/env $WORKLOADS/getppid 5" 2>"$err"
echo "status $?"
sed -E 's/pid[0-9]+/pidN/g; s/pid [0-9]+ /pid N /' "$err"
