/* A shift count is taken modulo 64, as DTrace's x86 DIF interpreter does. */
#pragma D option quiet

BEGIN
{
	x = 0xffffLL;
	n = 100;
	printf("%x %x %x %x\n", x << 100, x << -60, x << n, x >> 68);
	exit(0);
}
