/* D arrays: constant and computed indexes; an index out of range at run
   time is DTrace's "index out of range" error and tracing goes on. */
#pragma D option quiet

int a[4];
char c[3];

BEGIN
{
	a[0] = 10;
	i = 1;
	a[i] = 11;
	a[i + 1] = a[0] + a[1];
	c[2] = 'x';
	printf("%d %d %d %d %c\n", a[0], a[1], a[2], a[3], c[2]);
	printf("%d %d\n", sizeof (a), sizeof (c));
}

BEGIN
{
	i = 4;
	a[i] = 1;
	printf("not reached\n");
}

BEGIN
{
	printf("%d\n", a[2]);
	exit(0);
}
