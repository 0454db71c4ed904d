/*
 * stddev() and avg() as DTrace computes them: integer steps, truncated
 * toward zero, with a 128-bit sum of squares (values whose squares do not
 * fit in 64 bits), and negative values. Normalized, the sum of squares
 * is divided by the normal twice (illumos dt_stddev).
 */
#pragma D option quiet
BEGIN
{
	@sd["small"] = stddev(3); @sd["small"] = stddev(5); @sd["small"] = stddev(10);
	@sd["negative"] = stddev(-10); @sd["negative"] = stddev(10);
	@sd["huge"] = stddev(4000000000000); @sd["huge"] = stddev(6000000000000);
	@sd["one"] = stddev(42);
	@av["negative"] = avg(-7); @av["negative"] = avg(-2);
	@av["truncated"] = avg(1); @av["truncated"] = avg(2);
	@norm["5"] = stddev(5);
	@norm["10,20,30"] = stddev(10); @norm["10,20,30"] = stddev(20);
	@norm["10,20,30"] = stddev(30);
	exit(0);
}

END
{
	normalize(@norm, 2);
	printa(@norm);
	printa("%s %@d\n", @norm);
}
