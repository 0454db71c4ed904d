# Unknown macro variables and arguments, as dt_lex.l words them.
$DTRACE -e -n 'BEGIN { trace($nosuch); }'
$DTRACE -e -n 'BEGIN { trace($$nosuch); }'
$DTRACE -e -n 'BEGIN { trace($2); }' a
$DTRACE -e -n 'BEGIN { trace($1); }' 99999999999999999999999
exit 1
