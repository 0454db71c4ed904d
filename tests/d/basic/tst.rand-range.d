/*
 * rand() is in illumos's range, [0, 1771875) (DIF_SUBR_RAND reduces its
 * value modulo 1771875): never negative, so rand() % 4 is 0 to 3.
 */
#pragma D option quiet

tick-1ms
/i++ < 200/
{
	@outside = sum(rand() < 0 || rand() >= 1771875);
	@low = min(rand() % 4);
	@high = max(rand() % 4);
}

tick-1ms
/i > 200/
{
	printa("outside %@d\n", @outside);
	printa("low %@d\n", @low);
	printa("high %@d\n", @high);
	exit(0);
}
