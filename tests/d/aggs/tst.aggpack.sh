# -x aggpack prints each key's quantize() or lquantize() on one line under
# one header: the buckets every key shares (quantize: one either side of
# those used; lquantize: all), a character per bucket for its share of the
# key's counts, and the total. Terminals known not to show UTF-8 block
# characters (TERM=dumb) get "_xX"; others the blocks (here with aggzoom:
# the largest bucket of a key is a full block).
prog=$(mktemp)
trap 'rm -f "$prog"' EXIT
cat > "$prog" <<'EOS'
#pragma D option quiet
#pragma D option aggpack
BEGIN
{
	@q["one"] = quantize(1);
	@q["one"] = quantize(2, 3);
	@q["two"] = quantize(8, 5);
	@q["two"] = quantize(1000, 1);
	@l[1] = lquantize(3, 0, 10, 2, 4);
	@l[2] = lquantize(-1, 0, 10, 2);
	@l[2] = lquantize(12, 0, 10, 2, 2);
	@k = quantize(0, 2);
	exit(0);
}
EOS
TERM=dumb $DTRACE -s "$prog"
TERM=xterm $DTRACE -x aggzoom -s "$prog"
