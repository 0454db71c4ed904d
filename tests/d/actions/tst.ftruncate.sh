# ftruncate() empties the output file (-o, or freopen()'s): what follows
# starts it again.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "before dtrace" > "$dir/out"
$DTRACE -q -o "$dir/out" -n 'BEGIN { printf("one\n"); } BEGIN { printf("two\n"); ftruncate();
	printf("three\n"); } END { printf("four\n"); } BEGIN { exit(0); }'
echo "status $?"
cat "$dir/out"
