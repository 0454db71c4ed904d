# Bad probe descriptions are D_PDESC_INVAL while parsing.
$DTRACE -e -n 'syscall::$2:entry { }' x
$DTRACE -e -n 'syscall::$nosuch:entry { }'
$DTRACE -e -n 'a:b:c:d:e { }'
exit 1
