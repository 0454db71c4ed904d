# -p on a process that exits while dtrace matches and attaches thousands
# of pid probes in its libc: whenever it goes, dtrace ends by itself with
# one clear line, never a hang, a crash or a stack of errors. Which line
# depends on when the process went:
#   before dtrace started: failed to grab pid N: no such process, or
#     zombie process if the shell has not reaped it yet (status 1)
#   before the probes were matched: failed to grab process N (status 1)
#   while they were attached: could not enable tracing: ...: No such process (status 1)
#   after: pid N has exited (status 0, END runs)
err=$(mktemp)
trap 'rm -f "$err"' EXIT
for delay in 0 0.05 0.1 0.2 0.4; do
  sleep $delay &
  pid=$!
  timeout 30 $DTRACE -p $pid -n 'pid$target:libc.so.6::entry { @ = count(); }
    END { printf("END\n"); }' >/dev/null 2>"$err"
  status=$?
  case "$status:$(grep -v "matched .* probes" "$err")" in
    "1:dtrace: failed to grab pid $pid: no such process" | \
      "1:dtrace: failed to grab pid $pid: zombie process" | \
      "1:dtrace: invalid probe specifier "*": failed to grab process $pid" | \
      "1:dtrace: could not enable tracing: failed to enable pid$pid:"*": No such process" | \
      "0:dtrace: pid $pid has exited")
      echo "exit after ${delay}s: ended with one clear line" ;;
    *) echo "exit after ${delay}s: status $status"; cat "$err" ;;
  esac
  wait $pid
done
