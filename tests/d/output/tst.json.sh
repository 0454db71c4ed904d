# -x oformat=json: one JSON object per line, read back by a real JSON
# parser (jq); every line must parse, and the fields that do not change
# from run to run are printed: records with their actions' output, the
# aggregations printa() and the end of tracing print, a fault.
out=$(mktemp)
trap 'rm -f "$out"' EXIT
$DTRACE -x oformat=json -q -n '
BEGIN {
	@calls["read"] = count(); @calls["read"] = count(); @calls["open"] = count();
	@lat = quantize(3); @lat = quantize(100);
	@avg["a"] = avg(10); @avg["a"] = avg(5);
	printf("%s=%d\n", "answer", 42);
	trace(-7); trace("a \"quoted\"\tstring");
	printa("%-6s %@d\n", @calls);
}
BEGIN { x = *(int *)0; }
BEGIN { exit(0); }' >"$out"
# The CPU BEGIN runs on and the fault's instruction offset vary.
jq -c 'del(.timestamp, .cpu, .offset, .msg)' "$out"
