/* typedefs, pointers to functions and arrays of pointers are declarable. */
#pragma D option quiet

typedef struct point {
	int x;
	int y;
} point_t;
typedef int (*handler_t)(int, char *);

point_t p;
handler_t h;
int *ptrs[4];

BEGIN
{
	p.x = 1;
	p.y = p.x + 1;
	printf("%d %d %d %d %d\n", p.x, p.y, sizeof (point_t), sizeof (h), sizeof (ptrs));
	exit(0);
}
