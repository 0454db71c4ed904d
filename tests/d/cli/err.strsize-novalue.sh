# -x strsize needs a value.
$DTRACE -x strsize -n 'BEGIN { exit(0); }'
