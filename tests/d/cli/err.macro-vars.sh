# Unknown macro variables and arguments, as dt_lex.l words them.
$DTRACE -e -n 'BEGIN { trace($nosuch); }'
$DTRACE -e -n 'BEGIN { trace($$nosuch); }'
$DTRACE -e -n 'BEGIN { trace($2); }' a
$DTRACE -e -n 'BEGIN { trace($1); }' 99999999999999999999999
# A syntax error at a macro reference quotes the reference as written.
$DTRACE -e -n 'BEGIN /i = 123$pid/ { exit(0); }'
$DTRACE -e -n 'BEGIN /i = 123$1/ { exit(0); }' foo
exit 1
