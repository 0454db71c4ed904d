# exit(N) becomes dtrace's exit status.
$DTRACE -qn 'BEGIN { exit(3); }'
echo "status $?"
