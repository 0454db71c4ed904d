# stack() and ustack() as actions: a newline, then one frame per line,
# indented by stackindent. In a system call's entry probe the kernel stack
# starts where the tracepoint fired (syscall_trace_enter, past the BPF
# machinery) and ends in the system call entry code. BEGIN runs in dtrace
# itself, outside any traced kernel context: its kernel stack is empty.
$DTRACE -c "$WORKLOADS/stacks 1" -x stackindent=4 -n '
BEGIN { stack(); }
syscall::getppid:entry /pid == $target && !done++/ { stack(3); ustack(2); }' 2>/dev/null |
	sed 's/+0x[0-9a-f]*$/+{offset}/; s/^ *[0-9]* *[0-9]* *\([a-zA-Z]*:[a-zA-Z]*\) *$/\1/'
