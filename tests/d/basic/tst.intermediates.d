/*
 * Arithmetic keeps 64-bit intermediates, as DIF's registers do: an int
 * that overflows is converted when it is recorded, stored to memory or
 * cast to another width or signedness (a cast to long sign-extends the
 * int's low 32 bits: illumos dt_cg_typecast), not before; a variable keeps
 * the whole register, and an aggregating function sees the whole value.
 */
#pragma D option quiet

int stored;
int64_t wide;

BEGIN
{
	i = 100000;
	stored = i * 100000;
	wide = 1 << 31;
	printf("%d %d %d\n", i * 100000 / 100000, stored, (long)(i * 100000) / 100000);
	printf("%d %d\n", i * 100000 > 2147483647, wide);
	@sum = sum(i * 100000);
	@top = max((1 << 63) - 1);
	@q = lquantize(1, 0, 4, 1, 1075064400 * 1000000000);
	exit(0);
}
