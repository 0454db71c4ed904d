# -x pspec, or `#pragma D option pspec`: a top-level word that could
# start a declaration is a probe description instead.
script=$(mktemp --suffix=.d)
trap 'rm -f "$script"' EXIT
printf 'int*x;\nBEGIN { x = 0; exit(0); }\n' > "$script"
$DTRACE -q -s "$script"
echo "declaration: status $?" >&2
$DTRACE -q -x pspec -s "$script" 2>&1 | sed "s|$script|SCRIPT|" >&2
printf "#pragma D option pspec\n\nint*y\n" > "$script"
$DTRACE -q -s "$script" 2>&1 | sed "s|$script|SCRIPT|" >&2
exit 1
