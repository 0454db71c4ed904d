/* A bit-field has no size in bytes. */
struct bf {
	unsigned a:3;
} g;

BEGIN
{
	trace(sizeof (g.a));
}
