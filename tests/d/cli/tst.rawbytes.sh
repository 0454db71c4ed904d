# The rawbytes option (-x or #pragma) prints traced bytes as a hex dump even
# when they look like a string: all strsize bytes of a string constant,
# zero-padded after its NUL.
$DTRACE -q -x rawbytes -x strsize=20 -n 'BEGIN { trace("ab"); exit(0); }'
script=$(mktemp --suffix=.d)
printf '#pragma D option rawbytes\n#pragma D option quiet\n#pragma D option strsize=20\nBEGIN { trace("ab"); exit(0); }\n' >"$script"
$DTRACE -s "$script"
rm -f "$script"
