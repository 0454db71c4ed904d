# self and this are keywords: alone they are no variables.
$DTRACE -e -n 'BEGIN { self = 1; }'
$DTRACE -e -n 'BEGIN { this = 1; }'
exit 1
