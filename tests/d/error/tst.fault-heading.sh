# Without -q the probe heading is printed before a fault message even when
# nothing else was traced, as for any record (the Guide's badptr.d); the
# message itself goes to stderr.
$DTRACE -c "$WORKLOADS/getppid 1" -n 'syscall::getppid:entry /pid == $target/ { x = *(int *)0; }' 2>/dev/null
