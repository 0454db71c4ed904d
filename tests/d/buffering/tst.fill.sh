# bufpolicy=fill: a CPU records until its buffer is full; the record that
# does not fit is a drop and tracing stops, END's records having had room
# kept for them. Here 100 bytes hold END's 16 and five of the others.
# dtrace (whose timer fires tick-N) is kept on one CPU.
err=$(mktemp)
trap 'rm -f "$err"' EXIT
taskset -c 0 $DTRACE -q -x bufpolicy=fill -x bufsize=100 -n '
tick-10ms { printf("%d\n", i++); }
END { printf("end\n"); }' 2>"$err"
echo "exit status $?"
cat "$err"
