# copyin(), copyinto() and bcopy() with the write(2) of "hello" by a workload.
$DTRACE -q -c "$WORKLOADS/syscalls 1" -n '
syscall::write:entry /pid == $target/
{
	this->p = (char *)copyin(arg1, arg2);
	this->s = (char *)alloca(8);
	copyinto(arg1, 5, this->s);
	*(this->s + 5) = 0;
	printf("%s %d %d\n", stringof(this->s), *this->p, *(this->p + 4));
	bcopy(this->p + 3, this->s, 2);
	printf("%s\n", stringof(this->s));
	printf("%d\n", this->s - (char *)this->p);
}'
