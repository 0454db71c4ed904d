/*
 * llquantize(): log-linear buckets, 10 per magnitude from 10^1 to 10^3
 * in steps of the magnitude's tenth, with values below the lowest
 * magnitude, above the highest, negative ones, and 20 steps per magnitude
 * from 10^0 where the small integers each have their row.
 */
#pragma D option quiet
BEGIN
{
	@a = llquantize(5, 10, 1, 3, 10); @a = llquantize(15, 10, 1, 3, 10);
	@a = llquantize(150, 10, 1, 3, 10); @a = llquantize(155, 10, 1, 3, 10);
	@a = llquantize(9999, 10, 1, 3, 10); @a = llquantize(10000, 10, 1, 3, 10);
	@b = llquantize(3, 10, 0, 2, 20); @b = llquantize(25, 10, 0, 2, 20);
	@b = llquantize(-3, 10, 0, 2, 20);
	exit(0);
}
