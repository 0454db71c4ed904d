/*
 * printa() with a format: keys by their conversions, %@ with widths and
 * flags for the value, a distribution for %@d of a quantize(), an average
 * and a standard deviation through %@, and a keyless aggregation.
 */
#pragma D option quiet
BEGIN
{
	@c["sshd", 22] = count(); @c["sshd", 22] = count(); @c["httpd", 80] = count();
	@q["lat"] = quantize(3);
	@a = avg(10); @a = avg(5);
	@s = stddev(2); @s = stddev(4);
	@h[255] = sum(4096);
	printa("%-8s port %5d: %@3d calls\n", @c);
	printa("[%@-6d] [%@06d] [%@x] [%@#o]\n", @c);
	printa("%s:%@d\n", @q);
	printa("avg %@d stddev ", @a);
	printa("%@u\n", @s);
	printa("key %x value %@X\n", @h);
	exit(0);
}
