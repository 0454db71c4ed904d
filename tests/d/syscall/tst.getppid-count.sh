# Counting a workload's getppid calls gives exactly the number it made.
$DTRACE -q -n 'syscall::getppid:entry /pid == $target/ { @c = count(); }' \
  -c "$WORKLOADS/getppid 17"
