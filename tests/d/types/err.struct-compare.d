/* Structs are not scalars: they cannot be compared. */
struct pair { int a; };
struct pair x, y;

BEGIN
{
	trace(x == y);
}
