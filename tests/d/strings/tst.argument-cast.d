/*
 * Integer arguments are converted to the subroutine's parameter type, as
 * dt_cg_arglist casts each to its prototype: substr()'s and index()'s int
 * positions and strchr()'s char keep their low bits, constant or not.
 */
#pragma D option quiet

BEGIN
{
	x = 0x100000001;
	c = 0x162;
	printf("[%s] [%s] [%s] [%s] %d\n", substr("abcdef", 0x100000001), substr("abcdef", x),
	    substr("abcdef", 1, 0x100000002), strchr("abc", c), index("abcabc", "b", 0x100000002));
	exit(0);
}
