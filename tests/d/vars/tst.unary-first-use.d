/*
 * A unary operator applied to an associative array element, a thread-local
 * or a clause-local that nothing has assigned yet makes it an int64_t, as
 * illumos's dt_cook_op1 types it (DTraceToolkit's iosnoop tests
 * /!start[dev, blk]/ before another clause assigns it).
 */
#pragma D option quiet

BEGIN
/!a[1, "k"]/
{
	printf("unset %d\n", a[1, "k"]);
}

BEGIN
{
	a[1, "k"]++;
	a[1, "k"] += 0x100000000;
	printf("%d %d\n", a[1, "k"], -self->n);
}

BEGIN
/~this->m == -1/
{
	exit(0);
}
