# An ID beyond nspec (a negative one too) is an illegal operation in
# speculate(), commit() and discard(), reported as an ERROR.
for action in speculate commit discard; do
	$DTRACE -q -x nspec=4 -n "BEGIN { $action(5); } BEGIN { exit(0); }" 2>&1 >/dev/null |
		sed 's/ at DIF offset [0-9]*//' >&2
done
$DTRACE -q -n 'BEGIN { commit(-1); } BEGIN { exit(0); }' 2>&1 >/dev/null |
	sed 's/ at DIF offset [0-9]*//' >&2
exit 1
