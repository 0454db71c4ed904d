/* count, sum, min, max and avg, with and without keys, in the default layout. */
#pragma D option quiet
BEGIN
{
	@c["a"] = count(); @c["b"] = count(); @c["b"] = count();
	@s[1, "x"] = sum(10); @s[2, "y"] = sum(-3);
	@mn = min(5); @mn = min(-2);
	@mx = max(5); @mx = max(7);
	@av = avg(3); @av = avg(4);
	exit(0);
}
