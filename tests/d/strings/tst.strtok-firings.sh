# strtok() state lasts one probe firing: the second firing on the same CPU
# (the workload is pinned to CPU 0) finds nothing saved, and strtok(NULL)
# with nothing saved faults, as in illumos.
$DTRACE -q -c "taskset -c 0 $WORKLOADS/getppid 2" -n '
syscall::getppid:entry /pid == $target && n++ == 0/ { x = strtok("left,over", ","); }
syscall::getppid:entry /pid == $target && n == 2/ { printf("[%s] [%s]\n", x, strtok(0, ",")); }
syscall::getppid:entry /pid == $target && n == 2/ { printf("[%s]\n", x); }
ERROR { printf("fault %d\n", arg4); }' 2>/dev/null
