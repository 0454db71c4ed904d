/*
 * link_ntop() of an Ethernet and an InfiniBand address in alloca'd memory:
 * two lower-case hex digits per byte, joined by ':'. An unknown hardware
 * type is an illegal operation; an unreadable address a bad address.
 */
#pragma D option quiet

BEGIN
{
	this->a = (uint8_t *)alloca(20);
	this->a[0] = 0x0a; this->a[1] = 0xbc; this->a[5] = 0xff; this->a[19] = 0x7;
	printf("%s\n%s\n", link_ntop(ARPHRD_ETHER, this->a),
	    link_ntop(ARPHRD_INFINIBAND, this->a));
}

BEGIN
{
	printf("%s\n", link_ntop(5, this->a));
}

BEGIN
{
	printf("%s\n", link_ntop(ARPHRD_ETHER, 0));
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("fault %d\n", arg4);
}
