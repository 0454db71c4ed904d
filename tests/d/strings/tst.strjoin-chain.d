/*
 * A chain of strjoin()s, each one the next one's first operand, is joined
 * in one scratch area: it needs no more room at a large strsize than one
 * strjoin() does (illumos's strjoin takes strsize of scratch space each).
 * A result that fits strsize with its NUL is joined; one that does not is
 * out of scratch space, as illumos's strjoin finds it.
 */
#pragma D option quiet
#pragma D option strsize=4096

BEGIN
{
	a = "usr";
	b = "lib";
	c = "libc.so";
	printf("%s\n", strjoin(strjoin(strjoin(strjoin(strjoin("/", a), "/"), b), "/"), c));
	printf("%d\n", strlen(strjoin(strjoin(strjoin(strjoin(strjoin(strjoin(a, b), a), b), a),
	    b), a)));
	exit(0);
}
