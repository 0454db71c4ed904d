# printf(): %A names an address of the -c process (or of the process a
# uaddr() value carries), %a a kernel address (or a func() value), %k a
# stack, each frame formatted by the conversion (a left-justified width
# also indents the frames).
$DTRACE -q -c "$WORKLOADS/stacks 1" -n '
syscall::getppid:entry /pid == $target && !done++/
{
	printf("%A\n", ucaller);
	printf("[%a]\n", caller);
	printf("%a %A\n", func(caller), uaddr(ucaller));
	printf("[%k]\n", ustack(2));
	printf("[%-6k]\n", ustack(2));
	printf("[%30k]\n", stack(1));
}' | sed 's/+0x[0-9a-f]*/+{offset}/g'
