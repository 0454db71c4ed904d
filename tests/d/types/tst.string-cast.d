/* (string)x reads the string at address x, as stringof(x) does. */
#pragma D option quiet

BEGIN
{
	this->addr = (uintptr_t)(char *)curthread->comm;
	printf("%s %s %s\n", (string)this->addr, (string)curthread->comm, (string)"lit");
	exit(0);
}
