# Reads through an alloca() pointer stay within what the clause allocated:
# a byte just below the first allocation, or just past the last, is an
# invalid address, as in DTrace; the bytes allocated read back.
err=$(mktemp)
trap 'rm -f "$err"' EXIT
$DTRACE -q -n '
BEGIN { s = (char *)alloca(15); s[0] = 7; s[14] = 9; printf("%d %d\n", s[0], s[14]); }
BEGIN { s = (char *)alloca(15); trace(s[-1]); }
BEGIN { s = (char *)alloca(15); trace(s[15]); }
BEGIN { s = (char *)alloca(8); t = (int *)alloca(8); t[1] = 3; printf("%d\n", t[1]); }
BEGIN { t = (int *)alloca(8); trace(t[2]); }
BEGIN { exit(0); }
' 2>"$err"
sed -E 's/DIF offset [0-9]+/DIF offset N/; s/\(0xf[0-9a-f]+\)/(SCRATCH)/' "$err"
