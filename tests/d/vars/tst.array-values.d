/*
 * An associative array (or a thread-local one) may hold arrays: each
 * element is a whole array, indexed in place. An index outside the element,
 * constant or not, is a bad address when the clause runs, as in DTrace.
 */
#pragma D option quiet

int last[int][4];
self int recent[string][2];

BEGIN
{
	last[1][0] = 10;
	last[1][3] = 13;
	i = 2;
	last[1][i] = 12;
	self->recent["a"][1] = 7;
	printf("%d %d %d %d %d\n", last[1][0], last[1][1], last[1][2], last[1][3], last[2][3]);
	printf("%d %d %d\n", self->recent["a"][0], self->recent["a"][1], sizeof (last[1]));
}

BEGIN
{
	last[1][4] = 1;
	printf("not reached\n");
}

BEGIN
{
	i = -1;
	last[1][i] = 1;
	printf("not reached\n");
}

BEGIN
{
	self->recent["a"][2] = 1;
	printf("not reached\n");
}

BEGIN
{
	printf("%d %d %d %d\n", last[1][0], last[1][1], last[1][2], last[1][3]);
	exit(0);
}

ERROR
{
	printf("fault %d\n", arg4);
}
