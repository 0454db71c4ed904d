# A full dynamic-variable map drops the stores that do not fit, and says so:
# 200 distinct keys into a map of 64 elements drop exactly 136.
$DTRACE -q -x dynvarsize=1 -c "$WORKLOADS/getppid 200" \
  -n 'syscall::getppid:entry /pid == $target/ { a[timestamp] = 1; }' 2>&1
