/* A struct key must be of the type the array was first used with. */
struct a { int v; };
struct b { int v; };
struct a x;
struct b y;
BEGIN
{
	m[x] = 1;
	m[y] = 2;
}
