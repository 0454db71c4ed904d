/*
 * printa() of several aggregations joined on their keys: a key missing
 * from one of them shows 0 there, in the default layout and in a format;
 * %@ conversions beyond the aggregations repeat the last one; sorting is
 * by the first aggregation's value unless aggsortpos names another.
 */
#pragma D option quiet
BEGIN
{
	@calls["read"] = count(); @calls["read"] = count(); @calls["write"] = count();
	@bytes["read"] = sum(100); @bytes["open"] = sum(7);
	@worst["write"] = max(30); @worst["read"] = max(2);
	printa(@calls, @bytes, @worst);
	printa("%-6s %@2d %@4d %@3d %@3d\n", @calls, @bytes, @worst);
	setopt("aggsortpos", "1");
	printa("%-6s %@2d %@4d\n", @calls, @bytes);
	exit(0);
}
