# An ID beyond nspec (a negative one too) is an illegal operation in
# commit() and discard(), raised outside the DIF program, so reported at no
# DIF offset. In speculate() the clause is dropped instead, silently, as
# for an inactive ID: dtrace_probe sees the drop before the fault.
for action in speculate commit discard; do
	$DTRACE -q -x nspec=4 -n "BEGIN { $action(5); } BEGIN { exit(0); }" >&2
done
$DTRACE -q -n 'BEGIN { speculate(-1); printf("not printed\n"); }
    BEGIN { commit(-1); } BEGIN { exit(0); }' >&2
exit 1
