$DTRACE -n 'tick-1foo { exit(0); }'
