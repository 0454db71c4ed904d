/*
 * A string assignment is an expression whose value is the string stored:
 * chained (x = y = ...), as an operand of strjoin() and comparisons, and
 * traced, into globals and thread-locals alike.
 */
#pragma D option quiet
BEGIN
{
	x = (y = "ABC");
	self->z = (w = strjoin("q", "r"));
	j = strjoin((a = strjoin("ab", "c")), (b = "DEF"));
	printf("%s %s %s %s\n", x, y, self->z, w);
	printf("%s %s %s\n", j, a, b);
	printf("%d ", (s = "same") == (t = "same"));
	trace(u = strjoin("x", "y"));
	printf(" %s\n", u);
	exit(0);
}
