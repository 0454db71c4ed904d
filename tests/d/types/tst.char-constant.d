/* Character constants are ints, as in C. */
#pragma D option quiet

BEGIN
{
	x = 'A';
	printf("%d %d %d %c\n", sizeof ('A'), sizeof (x), x + 1, x);
	exit(0);
}
