/*
 * Structs and unions are associative-array keys by their bytes: equal
 * values name one element, different ones different elements, alone or
 * beside other keys.
 */
#pragma D option quiet
struct point { int x; char tag; };
union word { int i; char c[4]; };
struct point p, q;
union word w;
BEGIN
{
	p.x = 1; p.tag = 'a';
	q.x = 1; q.tag = 'a';
	seen[p] = 10;
	seen[q] += 5;
	q.x = 2;
	seen[q] = 7;
	w.i = 0x41424344;
	pair[w, "x"] = 3;
	printf("%d %d %d %d\n", seen[p], seen[q], pair[w, "x"], pair[w, "y"]);
	p.x = 2;
	printf("%d\n", seen[p]);
	exit(0);
}
