# DTrace built-ins Linux has no counterpart for are refused when the program
# is compiled, never read as a silent zero.
check() { $DTRACE -x errtags -e -n "$1"; }
for v in projid taskid zonename 'fds[0]'; do
	check "BEGIN { trace($v); }"
done
check 'BEGIN { zonename = "x"; }'
false
