/*
 * The printsize option bounds how much of an object print() shows: "..."
 * stands where the first member starting beyond it would be.
 */
#pragma D option quiet
#pragma D option printsize=12

struct inner {
	int	x;
	int	y;
};

struct outer {
	int		a;
	struct inner	in;
	int		b;
} o;

BEGIN
{
	o.a = 1;
	o.in.x = 2;
	o.in.y = 3;
	o.b = 4;
	print(o);
	exit(0);
}
