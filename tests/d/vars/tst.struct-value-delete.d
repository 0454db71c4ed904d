/*
 * Storing 0 in a whole struct or union element of an associative array or
 * thread-local deletes it: it reads as zeros again, its neighbours keep
 * their values.
 */
#pragma D option quiet
struct pair { int a; int b; };
struct pair p;
BEGIN
{
	p.a = 1; p.b = 2;
	m[1] = p;
	m[2] = p;
	self->q = p;
	m[1] = 0;
	self->q = 0;
	printf("%d %d %d %d %d\n", m[1].a, m[1].b, m[2].a, m[2].b, self->q.b);
	exit(0);
}
