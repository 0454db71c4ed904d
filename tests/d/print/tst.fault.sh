# print() of a pointer that cannot be read is an invalid address fault, and
# tracing goes on.
$DTRACE -qs /dev/stdin <<'EOF' 2>&1 >/dev/null | sed -E 's/DIF offset [0-9]+/DIF offset N/'
BEGIN
{
	print((struct timespec64 *)8);
}

BEGIN
{
	exit(0);
}
EOF
