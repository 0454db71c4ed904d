# -o sends the data to a file (appending), messages stay on stderr.
f=$(mktemp)
trap 'rm -f "$f"' EXIT
$DTRACE -q -o "$f" -n 'BEGIN { printf("one\n"); exit(0); }'
$DTRACE -q -o "$f" -n 'BEGIN { printf("two\n"); exit(0); }'
cat "$f"
