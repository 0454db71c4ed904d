/*
 * -x agghist prints a count() or sum() as a histogram of its keys: one
 * header whose "key" column is as wide as the keys (strings take 16
 * columns, right-justified), then each key with its value's bar, the share
 * of all the values; negative values grow left of a centre line. Other
 * aggregating functions and printa() formats print as usual.
 */
#pragma D option quiet
#pragma D option agghist

BEGIN
{
	@calls[1] = count();
	@calls[2] = count();
	@calls[2] = count();
	@calls[3] = count();
	@calls[3] = count();
	@calls[3] = count();
	@calls[3] = count();
	@bytes["read", 1] = sum(30);
	@bytes["write", 2] = sum(-10);
	@total = sum(7);
	@avg["x"] = avg(4);
	printa(@calls);
	printa("%d %@d\n", @calls);
	exit(0);
}
