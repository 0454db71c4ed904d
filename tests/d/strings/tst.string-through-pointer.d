/*
 * A string stored through a string pointer into alloca() memory copies its
 * bytes there (dt_cg_store, COPYS of strsize bytes); reading *x gives it
 * back. alloca(sizeof (string)) holds one; the compiler once crashed on
 * the first program below.
 */
#pragma D option quiet

BEGIN
{
	x = (string *)alloca(sizeof(string) + 1);
	*x = "abc";
	trace(*x);
	y = (string *)alloca(sizeof(string));
	*y = strjoin(*x, "def");
	printf(" %s %d\n", *y, strlen(*y));
	exit(0);
}
