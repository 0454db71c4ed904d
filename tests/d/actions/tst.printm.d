/*
 * printm(size, addr) records size bytes at addr and prints them as a hex
 * dump, as tracemem(addr, size) does.
 */
#pragma D option quiet

BEGIN
{
	this->p = (uint64_t *)alloca(16);
	this->p[0] = 0x4847464544434241;
	this->p[1] = 0x0102030405060708;
	printm(12, this->p);
	exit(0);
}
