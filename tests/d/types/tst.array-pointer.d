/*
 * The Guide's pointer and array relationship: an array names the address
 * of its first element, &a[i] and &s.m are addresses in the variable's
 * storage, and *(a + i) is a[i].
 */
#pragma D option quiet

int a[5];
struct pair { int first; int second[3]; } v;

BEGIN
{
	a[2] = 5;
	v.second[1] = 9;
	p = &a[0];
	q = &v.second[1];
	this->i = 2;
	printf("%d %d %d %d\n", p[2], *(a + 2), (a + 1)[1], a[this->i]);
	printf("%d %d %d\n", *q, *(v.second + 1), &a[this->i] == p + 2);
	exit(0);
}
