# A control line must end with a newline: a script whose last line is an
# unfinished #pragma is refused, as DTrace refuses it, rather than run.
script=$(mktemp --suffix=.d)
trap 'rm -f "$script"' EXIT
printf 'BEGIN { exit(0); }\n#pragma D option quiet' >"$script"
$DTRACE -x errtags -s "$script" 2>&1 | sed "s|$script|script.d|" >&2
exit 1
