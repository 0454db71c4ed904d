$DTRACE -n 'syscall::nosuchcall:entry { exit(0); }'
