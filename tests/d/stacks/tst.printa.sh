# printa() with stack and symbol keys: %k takes a stack key (a left-
# justified width indents its frames), %A a uaddr() key, %a a func() key;
# without a format, keys print as at exit.
$DTRACE -q -c "$WORKLOADS/stacks 2" -n '
syscall::getppid:entry /pid == $target/
{
	@s[ustack(2)] = count();
	@f[func(caller), uaddr(ucaller)] = count();
}
END
{
	printa("%-4k%@d\n", @s);
	printa("%a %A %@d\n", @f);
	printa(@f);
}' | sed 's/+0x[0-9a-f]*/+{offset}/g'
