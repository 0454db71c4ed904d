# %a prints a kernel address as module`function+offset, as DTrace does, and
# an address no function contains in hex.
$DTRACE -q -c "$WORKLOADS/getppid 1" -n '
syscall::getppid:entry /pid == $target/ { printf("%a\n%a\n", caller, 0); }' |
	sed 's/+0x[0-9a-f]*$/+OFFSET/'
