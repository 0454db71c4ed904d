# Pathologically deep scripts are refused with one message, never a crash:
# nested parentheses, a long chain of one operator, stacked unary
# operators, nested blocks and ifs.
script=$(mktemp --suffix=.d)
trap 'rm -f "$script"' EXIT
deep() { printf "%${2}s" | sed "s/ /$1/g"; }
check() {
	printf '%s\n' "$1" >"$script"
	$DTRACE -e -s "$script" 2>&1 | sed "s|$script|script.d|" >&2
}
check "BEGIN { x = $(deep '(' 20000)1$(deep ')' 20000); }"
check "BEGIN { x = 1$(deep '+1' 20000); }"
check "BEGIN { x = $(deep '!' 20000)1; }"
check "BEGIN $(deep '{' 20000)x = 1;$(deep '}' 20000)"
check "BEGIN { $(deep 'if (1) ' 20000)x = 1; }"
exit 1
