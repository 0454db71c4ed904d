/* The ERROR probe's arg4 is the fault, numbered as the DTRACEFLT_ constants. */
#pragma D option quiet

BEGIN
{
	x = 0;
	y = 1 / x;
}

BEGIN
{
	trace(*(int *)8);
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("%s\n", arg4 == DTRACEFLT_DIVZERO ? "divzero" :
	    arg4 == DTRACEFLT_BADADDR ? "badaddr" : "other");
}
