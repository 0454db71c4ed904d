/*
 * quantize(): power-of-two buckets for negative and positive values, the
 * zero rows around the data, increments (negative ones too), and bars to
 * both sides of the centre line when some counts are negative.
 */
#pragma D option quiet
BEGIN
{
	@pos = quantize(0); @pos = quantize(1); @pos = quantize(3);
	@pos = quantize(3); @pos = quantize(1000);
	@neg = quantize(-1); @neg = quantize(-5); @neg = quantize(-5);
	@weighted = quantize(8, 3); @weighted = quantize(9, 2); @weighted = quantize(16);
	@mixed = quantize(2, -4); @mixed = quantize(64, 2);
	@extremes = quantize(9223372036854775807); @extremes = quantize(-9223372036854775807 - 1);
	exit(0);
}
