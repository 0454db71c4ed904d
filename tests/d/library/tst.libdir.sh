# Libraries of the library path (-L, -x libdir): every .d file of each
# directory, compiled before the program in the order their
# `depends_on library` lines ask; what they define is the program's. A
# library whose dependency is not here is skipped, and so is every library
# that depends on it; a library's clauses are checked but never enabled.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/a" "$dir/b"
cat > "$dir/a/shapes.d" <<'D'
#pragma D depends_on library units.d
struct square { int side; };
inline int square_area = unit_side * unit_side;
BEGIN { printf("a library's clause runs\n"); }
D
cat > "$dir/a/units.d" <<'D'
#pragma D depends_on library ip.d
inline int unit_side = 7;
inline int unit_proto = IPPROTO_UDP;
D
cat > "$dir/a/optional.d" <<'D'
#pragma D depends_on provider no_such_provider
inline int optional_value = 1;
D
cat > "$dir/a/needs-optional.d" <<'D'
#pragma D depends_on library optional.d
inline int needs_optional_value = 2;
D
# The first file of a name wins: b/units.d is never read.
printf 'this is not D\n' > "$dir/b/units.d"
printf 'inline string from_b = "second directory";\n' > "$dir/b/more.d"
printf 'not a library\n' > "$dir/a/README"

$DTRACE -L "$dir/a" -x libdir="$dir/b" -qn '
struct square sq;
BEGIN
{
	sq.side = unit_side;
	printf("%d %d %d %d %s\n", sq.side, square_area, sizeof (struct square), unit_proto, from_b);
	exit(0);
}'
for name in optional_value needs_optional_value; do
	$DTRACE -L "$dir/a" -qn "BEGIN { trace($name); exit(0); }" 2>&1 |
	    sed "s|$dir|DIR|g"
done
