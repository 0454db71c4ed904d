/* htons/htonl/htonll and the ntoh* swap to and from network (big-endian) order. */
#pragma D option quiet

BEGIN
{
	printf("%x %x %x\n", htons(0x1234), htonl(0x12345678), htonll(0x0102030405060708));
	printf("%d %d %x\n", ntohs(htons(80)), ntohl(0x01000000), ntohll(1));
	x = rand();
	printf("%d\n", rand() != x || rand() != x);
	exit(0);
}
