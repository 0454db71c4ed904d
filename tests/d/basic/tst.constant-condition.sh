# `OPT ? action : 1;`, the idiom of published DTrace scripts: a statement
# whose condition is a constant (an integer inline, a macro argument, a
# literal) is the branch it chooses, which may be an action or an
# aggregation; the other branch is never checked.
script=$(mktemp --suffix=.d)
trap 'rm -f "$script"' EXIT
cat >"$script" <<'D'
#pragma D option quiet
inline int OPT_verbose = 1;
inline int OPT_counts = 0;
BEGIN
{
	OPT_verbose ? printf("verbose %d\n", $1) : 1;
	OPT_counts ? @counts = count() : 1;
	!OPT_counts ? @others = sum($1) : 1;
	$1 == 7 ? printf("seven\n") : printf("not seven\n");
	0 ? trace(nosuchvariable) : 1;
	exit(0);
}
D
$DTRACE -s "$script" 7
$DTRACE -s "$script" 8
