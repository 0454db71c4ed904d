# $N is lexed as its value: an identifier names a variable, an integer may
# have a suffix or a sign, anything else is a string (quotes stripped).
# $$0 is dtrace's argv[0] under -n; -s makes $0 the script's name.
$DTRACE -qn 'BEGIN { printf("%d %d %d\n", $1 > 0, $2 == 10, $3 * 2); exit(0); }' timestamp 10u -- -5
$DTRACE -qn 'BEGIN { printf("%s|%s|%d\n", $1, $2, sizeof ($3)); exit(0); }' '"quoted"' 'two words' 1ul
$DTRACE -qn 'BEGIN { printf("%s\n", $$0); exit(0); }' | grep -qxF "$DTRACE" && echo "argv0"
f=$(mktemp --suffix=.d)
trap 'rm -f "$f"' EXIT
echo 'BEGIN { printf("%s\n", $$0); exit(0); }' > "$f"
$DTRACE -qs "$f" | grep -qxF "$f" && echo "script"
