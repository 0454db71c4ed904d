# The rawbytes option (-x or #pragma) prints traced bytes as a hex dump even
# when they look like a string.
$DTRACE -q -x rawbytes -n 'BEGIN { trace("ab"); exit(0); }'
script=$(mktemp --suffix=.d)
printf '#pragma D option rawbytes\n#pragma D option quiet\nBEGIN { trace("ab"); exit(0); }\n' >"$script"
$DTRACE -s "$script"
rm -f "$script"
