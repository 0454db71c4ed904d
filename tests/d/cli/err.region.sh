# Errors in -n clauses name the region (no line numbers), as dt_set_errmsg
# does; scripts give the line.
$DTRACE -e -n 'BEGIN { x = curthread->nosuch; }'
$DTRACE -e -n 'BEGIN /curthread->nosuch/ { x = 1; }'
f=$(mktemp --suffix=.d)
trap 'rm -f "$f"' EXIT
printf 'BEGIN\n{\n\tx = curthread->nosuch;\n}\n' > "$f"
$DTRACE -e -s "$f" 2>&1 | sed "s|$f|script.d|" >&2
exit 1
