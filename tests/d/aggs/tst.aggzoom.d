/*
 * -x aggzoom scales a distribution's bars to its largest bucket, whose bar
 * fills 95 % of the width (38 of 40 columns, 19 of 20 on either side of
 * the centre line when counts are negative), rather than to the sum.
 */
#pragma D option quiet
#pragma D option aggzoom

BEGIN
{
	@pos = quantize(1);
	@pos = quantize(2, 2);
	@pos = quantize(4, 4);
	@lin = lquantize(3, 0, 10, 2, 8);
	@lin = lquantize(5, 0, 10, 2, 3);
	@mixed = quantize(1, 3);
	@mixed = quantize(-2, -5);
	exit(0);
}
