# -x droptags names the kind of each drop, as DTrace's drop handler does:
# dynamic variables (200 keys into 64 elements), aggregations (10 keys into
# two entries, on CPU 0) and speculations (two speculation() calls with nspec=1).
$DTRACE -q -x droptags -x dynvarsize=1 -c "$WORKLOADS/getppid 200" \
  -n 'syscall::getppid:entry /pid == $target/ { a[timestamp] = 1; }' 2>&1
$DTRACE -q -x droptags -x aggsize=100 -c "taskset -c 0 $WORKLOADS/getppid 10" \
  -n 'syscall::getppid:entry /pid == $target/ { @[timestamp] = count(); }
      END { trunc(@); }' 2>&1
$DTRACE -q -x droptags -x nspec=1 \
  -n 'BEGIN { a = speculation(); b = speculation(); exit(0); }' 2>&1
echo "without droptags:"
$DTRACE -q -x nspec=1 -n 'BEGIN { a = speculation(); b = speculation(); exit(0); }' 2>&1
