# Without -q, print() output follows the probe's columns; lines after the
# first line up under the data column. The CPU column is masked.
$DTRACE -s /dev/stdin <<'EOF' 2>&1 | sed -E 's/^ +[0-9]+ ( +[0-9]+ )/  C\1/'
struct point { int x; int y; } p;

BEGIN
{
	p.x = 3;
	print(p.x);
}

BEGIN
{
	print(p);
}

BEGIN
{
	exit(0);
}
EOF
