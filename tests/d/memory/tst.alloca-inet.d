/*
 * inet_ntoa(), inet_ntoa6() and inet_ntop() of addresses built in alloca'd
 * memory: DTrace's zero-run compression and IPv4-mapped/compatible forms;
 * inet_ntoa6()'s second argument, non-zero, asks for inet_ntop()'s forms.
 */
#pragma D option quiet

BEGIN
{
	this->v4 = (uint32_t *)alloca(4);
	*this->v4 = 0x0100a8c0;
	printf("%s %s\n", inet_ntoa(this->v4), inet_ntop(2, this->v4));
	this->a = (uint64_t *)alloca(16);
	this->b = this->a + 1;
	*this->a = 0; *this->b = 0;
	printf("%s %s\n", inet_ntoa6(this->a), inet_ntoa(this->a));
	*this->b = 0x0100000000000000;
	printf("%s %s\n", inet_ntoa6(this->a), inet_ntop(10, this->a));
	*this->b = 0x04030201ffff0000;
	printf("%s %s\n", inet_ntoa6(this->a), inet_ntop(10, this->a));
	printf("%s %s\n", inet_ntoa6(this->a, 0), inet_ntoa6(this->a, 2));
	*this->b = 0x0403020100000000;
	printf("%s %s\n", inet_ntoa6(this->a), inet_ntop(10, this->a));
	printf("%s %s\n", inet_ntoa6(this->a, 0), inet_ntoa6(this->a, 1));
	*this->a = 0x00000000000080fe; *this->b = 0xc8760bfeff4f1402;
	printf("%s\n", inet_ntop(10, this->a));
	*this->a = 0x0000010000000100; *this->b = 0x0100000000000000;
	printf("%s\n", inet_ntop(10, this->a));
	*this->a = 0x0000000000000120; *this->b = 0;
	printf("%s\n", inet_ntop(10, this->a));
	*this->a = 0xffffffffffffffff; *this->b = 0xffffffffffffffff;
	printf("%s %s\n", inet_ntop(10, this->a), inet_ntoa(this->b));
	exit(0);
}
