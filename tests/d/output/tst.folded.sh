# -x oformat=folded: aggregations of numbers as folded stacks, each key a
# frame in key order, one line per entry whose value is above zero; the
# records' own text goes to stderr, so stdout is a clean folded file, and
# a distribution (which cannot fold) is left out.
$DTRACE -x oformat=folded -q -n '
BEGIN {
	@[execname, "read", 3] = count(); @[execname, "read", 3] = count();
	@[execname, "open;close", 7] = count();
	@bytes["a\tb"] = sum(512); @bytes["none"] = sum(0);
	@lat = quantize(1);
	printf("not in the folded output\n");
	exit(0);
}' 2>/dev/null
