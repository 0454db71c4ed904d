/*
 * Inlines that name each other: an inline sees only what was declared
 * before it, so the cycle is an undefined name, reported once, never an
 * endless expansion.
 */
inline int a = b;
inline int b = a;

BEGIN
{
	trace(a);
	exit(0);
}
