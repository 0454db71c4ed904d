# A long switch interval delays output, not the end: exit() wakes dtrace at
# once, though unread records sit before its own in the buffer. (The
# workload stays on one CPU, so that its records print in call order.)
start=$(date +%s)
$DTRACE -q -x switchrate=30s -n '
syscall::getppid:entry /pid == $target/ { printf("call %d\n", ++n); }
syscall::getppid:entry /pid == $target && n == 3/ { exit(0); }' \
  -c "taskset -c 0 $WORKLOADS/getppid 1000 100"
elapsed=$(( $(date +%s) - start ))
[ "$elapsed" -lt 15 ] && echo "ended before the interval did"
