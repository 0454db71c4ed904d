# -Z lets a description match nothing.
$DTRACE -qZ -n 'syscall::nosuchcall:entry { exit(1); }' -n 'BEGIN { printf("ran\n"); exit(0); }'
echo "status $?"
