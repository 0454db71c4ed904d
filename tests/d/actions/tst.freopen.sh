# freopen(fmt, ...) appends later output to the file it names, system()
# output included; freopen("") goes back to the original output. A file
# that cannot be opened is reported, and the output stays where it was.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "old" > "$dir/out.1"
$DTRACE -wqn 'BEGIN {
	printf("a\n");
	freopen("%s/out.%d", $$1, 1);
	printf("b\n");
	system("echo c");
	freopen("");
	printf("d\n");
	freopen("%s/none/x", $$1);
	printf("e\n");
	freopen("%s/out.2", $$1);
	printf("f\n");
	exit(0);
}
END { printf("g\n"); }' "$dir" 2>&1 | sed "s|$dir|DIR|"
echo "status ${PIPESTATUS[0]}"
echo "--- out.1"; cat "$dir/out.1"
echo "--- out.2"; cat "$dir/out.2"
