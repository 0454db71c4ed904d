# copyinstr(addr, n) copies at most n characters (n + 1 bytes with the NUL)
# when n, compared unsigned, is below the string size, else the whole
# string, as illumos's DIF_SUBR_COPYINSTR sizes it; n may be computed at
# run time (write(2)'s count), and -1 is the largest n there is.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '#!/bin/sh\necho hello world >/dev/null\n' >"$work/run"
chmod +x "$work/run"
$DTRACE -q -c "$work/run" -n '
syscall::write:entry /pid == $target/
{
	printf("[%s] [%s] [%s]\n", copyinstr(arg1, arg2 - 7), copyinstr(arg1, 3),
	    copyinstr(arg1, -1));
}'
