/*
 * llquantize(): log-linear buckets, 10 per magnitude from 10^1 to 10^3
 * in steps of the magnitude's tenth, with values below the lowest
 * magnitude, above the highest, negative ones, and 20 steps per magnitude
 * from 10^0 where the small integers each have their row. Parameters
 * illumos accepts beyond those: more steps than a low magnitude has
 * integers (1000 steps of 10^0..10^3: 1..9, 10..99, 100..999 one by one,
 * then in tens), and a highest magnitude whose next power does not fit in
 * 64 bits (10^19, 2^63).
 */
#pragma D option quiet
BEGIN
{
	@a = llquantize(5, 10, 1, 3, 10); @a = llquantize(15, 10, 1, 3, 10);
	@a = llquantize(150, 10, 1, 3, 10); @a = llquantize(155, 10, 1, 3, 10);
	@a = llquantize(9999, 10, 1, 3, 10); @a = llquantize(10000, 10, 1, 3, 10);
	@b = llquantize(3, 10, 0, 2, 20); @b = llquantize(25, 10, 0, 2, 20);
	@b = llquantize(-3, 10, 0, 2, 20);
	@c = llquantize(97, 10, 0, 3, 1000); @c = llquantize(101, 10, 0, 3, 1000);
	@d = llquantize(1234, 10, 0, 3, 1000); @d = llquantize(1251, 10, 0, 3, 1000);
	@e = llquantize(9223372036854775807, 10, 0, 19, 10);
	@f = llquantize(-9223372036854775807 - 1, 10, 0, 19, 10);
	@g = llquantize(9223372036854775807, 2, 0, 63, 2);
	exit(0);
}
