# The preprocessor options as -x options: cpp (-C), cpphdrs (-H), and
# Oracle's cppargs, arguments for cpp split at blanks (here -H among them).
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/cpp.d" <<'EOS'
#include <linux/posix_types.h>
BEGIN { printf("%d\n", A + B); exit(0); }
EOS
echo "-x cpp:"
$DTRACE -q -x cpp -DA=1 -DB=2 -s "$dir/cpp.d"
echo "-x cpphdrs:"
$DTRACE -q -x cpp -x cpphdrs -DA=1 -DB=2 -s "$dir/cpp.d" 2>&1 | grep -v '^\.\.'
echo "-x cppargs:"
$DTRACE -q -C -x 'cppargs=-DA=20  -DB=22 -H' -s "$dir/cpp.d" 2>&1 | grep -v '^\.\.'
