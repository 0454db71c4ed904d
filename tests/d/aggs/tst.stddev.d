/*
 * stddev() and avg() as DTrace computes them: integer steps, truncated
 * toward zero, with a 128-bit sum of squares (values whose squares do not
 * fit in 64 bits), and negative values.
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
	exit(0);
}
