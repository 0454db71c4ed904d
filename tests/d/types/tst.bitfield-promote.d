/* An unsigned bit-field narrower than int promotes to int, as illumos
   ranks integers by their width in bits. */
#pragma D option quiet

struct bf {
	unsigned a:3;
	unsigned b:5;
} g;

BEGIN
{
	g.a = 7;
	printf("%d %d %d\n", g.a - 8, g.a - 8 < 0, -g.a);
	printf("%d\n", g.a < -1);
	exit(0);
}
