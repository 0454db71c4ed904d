/*
 * Whole structs assigned into members and elements of D variables and of
 * scratch memory; elements selected by run-time indexes; string members of
 * associative-array elements; bit-fields stored through a pointer (each in
 * a byte of its own, as illumos lays out a D struct).
 */
#pragma D option quiet
struct in { int a; char s[8]; };
struct out { int n; struct in i; struct in arr[3]; };
struct out x, m[int];
self struct out t;
struct in g;
struct named { string str; int v; } c[int], gs[2];
struct bf { unsigned a:3; unsigned e:4; };
int nums[4];

BEGIN
{
	g.a = 9;
	g.s[0] = 'h';
	g.s[1] = 'i';
	x.i = g;
	this->k = 2;
	x.arr[this->k] = g;
	m[1].arr[this->k - 1] = g;
	self->t.i = g;
	p = (struct in *)alloca(sizeof (struct in));
	*p = g;
	q = (struct out *)alloca(sizeof (struct out));
	q->arr[2] = x.i;
	printf("%d %s %d %d %d %d\n", x.i.a, x.i.s, x.arr[2].a, x.arr[this->k].a, x.arr[0].a, x.n);
	printf("%d %d %d %d %d %s\n", m[1].arr[1].a, m[1].n, self->t.i.a, p->a, q->arr[2].a, q->arr[2].s);

	c[0].str = "foo";
	c[0].v = 3;
	gs[this->k - 1].str = "bar";
	printf("%s %d %s [%s] [%s]\n", c[0].str, c[0].v, gs[1].str, gs[0].str, c[5].str);

	nums[this->k] = 7;
	nums[this->k + 1] = 8;
	printf("%d %d %d\n", nums[2], nums[this->k + 1], nums[this->k - 2]);

	b = (struct bf *)alloca(sizeof (int));
	*(int *)b = 0;
	b->e = 5;
	b->a = 2;
	printf("e=%d a=%d raw=%x\n", b->e, b->a, *(int *)b);
	idx = 3;
}

/* A clause whose first use of a register is a run-time-indexed read. */
BEGIN
{
	printf("%d\n", nums[idx]);
	exit(0);
}
