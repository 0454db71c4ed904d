# When cpp fails, its diagnostics come first and dtrace's own message starts
# a line of its own.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '#error stop here\nBEGIN { exit(0); }\n' > "$dir/bad.d"
cd "$dir" || exit 2
$DTRACE -C -s bad.d 2>err.txt
echo "status $?"
grep -q '#error stop here' err.txt && echo "cpp's diagnostic kept"
grep '^dtrace: ' err.txt
tail -c 1 err.txt | od -An -c
