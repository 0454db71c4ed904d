/*
 * lquantize(): the "< base" and ">= limit" rows, a step, the default step
 * of 1, an increment, and a value exactly at the limit.
 */
#pragma D option quiet
BEGIN
{
	@a = lquantize(5, 0, 100, 10); @a = lquantize(15, 0, 100, 10);
	@a = lquantize(15, 0, 100, 10); @a = lquantize(100, 0, 100, 10);
	@a = lquantize(-1, 0, 100, 10);
	@b = lquantize(3, 1, 5); @b = lquantize(3, 1, 5, 1, 4);
	@c = lquantize(-20, -10, 10, 5);
	@empty = lquantize(1, 0, 10, 1, 0);
	exit(0);
}
