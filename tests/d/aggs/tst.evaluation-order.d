/*
 * An aggregation's parts are evaluated in dt_compile_agg's order: the
 * keys, then the increment, then the value, each a DTrace action.
 */
#pragma D option quiet
int i;

BEGIN
{
	@sum[i++] = sum(i);
	@lq[i++] = lquantize(i, 0, 5, 1, i++);
	exit(0);
}
