/* getmajor() and getminor() of Linux kernel-internal dev_t values (major << 20 | minor). */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", getmajor(0x800003), getminor(0x800003));
	printf("%d %d\n", getmajor((4095 << 20) | 0xfffff), getminor((4095 << 20) | 0xfffff));
	printf("%d %d\n", getmajor(0), getminor(0));
	exit(0);
}
