# sdt lists tracepoints as sdt:CATEGORY::EVENT, with their argument types;
# the syscalls category belongs to the syscall provider. (IDs depend on
# the kernel's tracepoints: left out.)
$DTRACE -l -n 'sdt:sched::sched_process_fork' | awk '{ print $2, $3, $4 }'
$DTRACE -lv -n 'sdt:sched::sched_switch' | sed -n '/Argument Types/,$p' | grep 'args\['
$DTRACE -l -n 'sdt:syscalls::' 2>&1 | tail -1
