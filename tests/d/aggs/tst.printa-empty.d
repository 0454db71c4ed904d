/*
 * A printa() that prints no entry does not count as printing the
 * aggregation: the entries added later are printed when tracing ends, as
 * DTrace flags only the aggregations whose entries printa() printed.
 */
#pragma D option quiet
END
{
	@a = count();
	@c = sum(3);
}

BEGIN
{
	printa(@a);
	printa("%@d\n", @c);
	printf("(nothing yet)\n");
	exit(0);
}
