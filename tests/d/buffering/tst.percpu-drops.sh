# Each CPU has its own principal buffer: a full one drops only its CPU's
# records, and the drops are counted on that CPU. The workload makes 1000
# getppid calls on CPU 1 at real-time priority, so that dtrace, kept on
# CPU 1 too, cannot drain meanwhile: CPU 1's 4 KiB buffer keeps the first
# four 1 KiB records and the other 996 are its drops. CPU 0's buffer is
# untouched: END's record, written on CPU 1 once the buffer was drained,
# still has room.
# run alone
taskset -c 1 $DTRACE -q -b 4k -x strsize=999 -n '
syscall::getppid:entry /pid == $target/ { this->s = lltostr(++n); trace(this->s); }
END { this->s = " end"; trace(this->s); }' \
  -c "chrt -f 10 taskset -c 1 $WORKLOADS/getppid 1000" 2>&1
status=$?
echo
echo "exit status $status"
