/*
 * A char array assigned to a string variable copies its characters, into
 * every kind of variable (illumos dt_node_is_argcompat: both are strings);
 * a missing associative array element reads as an empty string.
 */
#pragma D option quiet

struct name { char n[8]; } v;

BEGIN
{
	v.n[0] = 'o';
	v.n[1] = 'k';
	g = "a";
	g = v.n;
	this->l = v.n;
	self->t = v.n;
	a[1] = "a";
	a[1] = v.n;
	printf("%s %s %s %s [%s] %d\n", g, this->l, self->t, a[1], a[2], strlen(a[3]));
	exit(0);
}
