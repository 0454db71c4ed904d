# A fault names the DTrace action it happened in, and ERROR's arg2 is its
# number: dt_cc.c makes an action of each printf() argument, of an
# aggregation's ID, each key, its increment and the aggregating function,
# two of normalize() and setopt(), and one of anything else
# (dtrace_probe counts them up to the faulting one).
out=$(mktemp)
trap 'rm -f "$out"' EXIT
check() {
	$DTRACE -q -n "ERROR { printf(\"arg2 %d\\n\", arg2); } BEGIN { $1 } BEGIN { exit(0); }" \
	    2>&1 >"$out" | sed -E 's/ at DIF offset [0-9]+//'
	sed '/^$/d' "$out"
}
check 'x = 1; trace(*(int *)0);'
check 'printf("%d %d\n", 1, 2); trace(*(int *)0);'
check '@a[1, 2] = sum(*(int *)0);'
check '@a[1, *(int *)0] = sum(1);'
check '@q[1] = quantize(1, *(int *)0);'
check '@a = count(); normalize(@a, *(int *)0);'
check 'setopt("quiet"); @a = count(); printa(@a); trace(*(int *)0);'
check 'tracemem(0, 8, *(int *)0);'
