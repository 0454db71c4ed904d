# stop() stops the current process (SIGSTOP) as it returns to user mode;
# SIGCONT resumes it.
"$WORKLOADS/getppid" 1000000000 &
pid=$!
trap 'kill -KILL $pid 2>/dev/null' EXIT
$DTRACE -wq -p $pid -n 'syscall::getppid:entry /pid == $target/ { stop(); exit(0); }'
echo "status $?"
state() { awk '{ print $3 }' "/proc/$pid/stat"; }
for i in $(seq 50); do [ "$(state)" = T ] && break; sleep 0.1; done
echo "after stop(): $(state)"
kill -CONT $pid
for i in $(seq 50); do [ "$(state)" != T ] && break; sleep 0.1; done
echo "after SIGCONT: $(state)"
