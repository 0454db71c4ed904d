/*
 * tracemem(addr, size) records size bytes of memory and prints them as a
 * hex dump; a third argument says how many of them to print (0, or more
 * than size: all of them). An array stands for its address.
 */
#pragma D option quiet

BEGIN
{
	this->p = (uint64_t *)alloca(24);
	this->p[0] = 0x4847464544434241;
	this->p[1] = 0x0102030405060708;
	this->p[2] = 0x7a79;
	tracemem(this->p, 20);
	tracemem(this->p, 20, 9);
	tracemem(this->p, 20, 0);
	tracemem(this->p, 20, 100);
	tracemem(this->p, 20, -1);
	tracemem(curthread->comm, 16);
	printf("\n");
}

BEGIN
{
	exit(0);
}
