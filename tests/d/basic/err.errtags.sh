# -x errtags puts the D error tag before the location.
$DTRACE -x errtags -n 'BEGIN { x = "a" - 1; }'
