# A string constant takes strsize bytes in the principal buffer, as every
# D string does in DTrace's: with strsize=4k, each BEGIN clause below
# records two of them (8 KiB and headers), so a 64 KiB buffer holds seven
# such records; the eighth is a drop, and exit()'s small record still fits.
err=$(mktemp)
trap 'rm -f "$err"' EXIT
clauses=
for i in 0 1 2 3 4 5 6 7; do
	clauses="$clauses BEGIN { trace(\"a$i\"); trace(\"b$i\"); }"
done
$DTRACE -q -b 64k -x strsize=4k -n "$clauses BEGIN { exit(0); }" 2>"$err"
echo
sed -E 's/on CPU [0-9]+/on CPU C/' "$err"
