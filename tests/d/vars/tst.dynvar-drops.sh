# A full dynamic variable space drops the stores that do not fit, and says
# so: dynvarsize=1 is raised to one element, as in DTrace, so 200 distinct
# keys drop exactly 199.
$DTRACE -q -x dynvarsize=1 -c "$WORKLOADS/getppid 200" \
  -n 'syscall::getppid:entry /pid == $target/ { a[timestamp] = 1; }' 2>&1
