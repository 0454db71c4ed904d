/* strtoll(): blanks, a sign, digits of the base (and "0x" in base 16); no digits is 0. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d\n", strtoll("42"), strtoll("  -17xyz"), strtoll("\t+8"), strtoll("abc"),
	    strtoll(""));
	printf("%d %d %d %d\n", strtoll("0x1f", 16), strtoll("-0X10", 16), strtoll("0xg", 16),
	    strtoll("ff", 16));
	printf("%d %d %d %d\n", strtoll("777", 8), strtoll("1019", 2), strtoll("zz", 36),
	    strtoll("9223372036854775807"));
	printf("%d\n", strtoll(lltostr(-123456789)) * 2);
	exit(0);
}
