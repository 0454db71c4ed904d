# Inputs of extreme size compile in bounded time and memory: a 1 MB string
# literal, a 1 MB identifier, a 4 MB comment and 10,000 clauses each
# compile (-e) well within the test's time limit, and an integer constant
# of 10,000 digits is one error message.
script=$(mktemp --suffix=.d)
trap 'rm -f "$script"' EXIT
repeat() { head -c "$2" /dev/zero | tr '\0' "$1"; }
compile() {
	printf '%s\n' "$1" >"$script"
	if timeout 20 $DTRACE -e -s "$script"; then echo "$2: compiled"; else echo "$2: failed"; fi
}
compile "BEGIN { x = \"$(repeat a 1048576)\"; }" "1 MB string literal"
compile "BEGIN { $(repeat x 1048576) = 1; }" "1 MB identifier"
compile "/*$(repeat ' ' 4194304)*/ BEGIN { x = 1; }" "4 MB comment"
compile "$(for i in $(seq 10000); do echo "BEGIN { x = $i; }"; done)" "10,000 clauses"
printf 'BEGIN { x = %s; }\n' "$(repeat 9 10000)" >"$script"
timeout 20 $DTRACE -e -s "$script" 2>&1 | wc -l
