# `#pragma D option` acts exactly as -x: strsize is the size of strings in
# the program that sets it, and rawbytes is accepted either way.
f=$(mktemp --suffix=.d)
trap 'rm -f "$f"' EXIT
cat > "$f" <<'EOS'
#pragma D option strsize=8
#pragma D option rawbytes
BEGIN { s = "abcdefghijklmnop"; printf("[%s]\n", s); exit(0); }
EOS
$DTRACE -qs "$f"
$DTRACE -q -x strsize=8 -x rawbytes -n 'BEGIN { s = "abcdefghijklmnop"; printf("[%s]\n", s); exit(0); }'
