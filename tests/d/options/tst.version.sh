# -x version=V hides what later D versions brought, as dt_opt_version's
# dt_reduce drops it: built-in variables (ucaller, D 1.2) become the
# program's own names, actions (setopt 1.2, print 1.9) and aggregating
# functions (stddev 1.6) undefined functions; cpp's __SUNW_D_VERSION is V;
# a version once lowered cannot be raised (EDT_VERSREDUCED).
$DTRACE -x version=1.0 -qn 'BEGIN { ucaller = 7; printf("%d\n", ucaller); exit(0); }'
$DTRACE -x version=1.1 -en 'BEGIN { trace(ucaller); }' 2>&1
$DTRACE -x version=1.2 -en 'BEGIN { trace(ucaller); setopt("quiet"); }' && echo "1.2 has ucaller and setopt"
$DTRACE -x version=1.1 -en 'BEGIN { setopt("quiet"); }' 2>&1
$DTRACE -x version=1.8 -en 'BEGIN { print(1); }' 2>&1
$DTRACE -x version=1.5 -en 'BEGIN { @ = stddev(1); }' 2>&1
script=$(mktemp --suffix=.d)
trap 'rm -f "$script"' EXIT
printf 'BEGIN { printf("%%x\\n", __SUNW_D_VERSION); exit(0); }\n' >"$script"
$DTRACE -qC -x version=1.1 -s "$script"
$DTRACE -qC -s "$script"
$DTRACE -x version=1.0 -x version=1.13 -en 'BEGIN {}' 2>&1
$DTRACE -x version=1.13 -x version=1.0 -en 'BEGIN {}' && echo "lowering is allowed"
