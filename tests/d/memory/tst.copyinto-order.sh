# copyinto()'s and bcopy()'s arguments are evaluated left to right: each
# n++ below sees the one before it (copyinto: source at +1, 2 bytes, to
# offset 3; bcopy: from offset 3, to offset 1, 2 bytes).
$DTRACE -q -c "$WORKLOADS/syscalls 1" -n '
syscall::write:entry /pid == $target/
{
	this->s = (char *)alloca(8);
	this->s[0] = this->s[1] = this->s[2] = this->s[3] = this->s[4] = 46;
	this->s[5] = 0;
	n = 1;
	copyinto(arg1 + (n++), (n++), this->s + (n++));
	printf("%s\n", stringof(this->s));
	n = 0;
	bcopy(this->s + 3 + (n++), this->s + (n++), (n++));
	printf("%s\n", stringof(this->s));
}'
