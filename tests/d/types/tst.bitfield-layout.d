/*
 * A D struct is laid out as illumos' CTF library lays it out: a bit-field
 * is an integer of its width in the smallest unit of 1, 2, 4 or 8 bytes
 * that holds it, each member starts at the byte after the previous one's
 * bits (rounded up to its alignment), and the struct ends with its last
 * member. Bit-fields read back with their width and signedness.
 */
#pragma D option quiet

struct one { int a : 1; };
struct two { int a : 1; int b : 3; };
struct mixed { int c : 12; int a : 10; int b : 3; };
struct wide { long c : 32; long long d : 9; int e : 1; };
struct plain { long l; char c; };
struct two t;

BEGIN
{
	printf("%d %d %d %d %d\n", sizeof (struct one), sizeof (struct two),
	    sizeof (struct mixed), sizeof (struct wide), sizeof (struct plain));
	t.a = -1;
	t.b = 5;
	printf("%d %d\n", t.a, t.b);
	t.b = 3;
	printf("%d %d\n", t.a, t.b);
	exit(0);
}
