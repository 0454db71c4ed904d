# raise(sig) signals the current process as it returns to user mode.
# Raised in BEGIN it reaches dtrace itself: SIGINT ends tracing cleanly.
$DTRACE -wqn 'BEGIN { raise(2); } END { printf("END after SIGINT\n"); }'
echo "status $?"
# The target dies of SIGKILL at its first getppid(): one entry, not five.
$DTRACE -wq -c "$WORKLOADS/getppid 5" -n 'syscall::getppid:entry /pid == $target/ {
	@calls = count(); raise(9); }'
echo "status $?"
# Signal 0 sends nothing; beyond the last signal (or negative) is a fault.
$DTRACE -wqn 'BEGIN { raise(0); printf("raise(0) is a no-op\n"); }
	BEGIN { raise(65); } BEGIN { raise(-1); } BEGIN { exit(0); }' 2>&1 >/dev/null |
  sed -E 's/DIF offset [0-9]+/DIF offset N/'
$DTRACE -wqn 'BEGIN { raise(0); printf("raise(0) is a no-op\n"); exit(0); }'
