# -C runs the C preprocessor with -D/-U/-I.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo '#define GREETING "hi from include"' > "$dir/defs.h"
cat > "$dir/cpp.d" <<'EOS'
#include "defs.h"
BEGIN { printf("%s %d\n", GREETING, VALUE * 2); exit(0); }
EOS
$DTRACE -qC -I"$dir" -DVALUE=21 -s "$dir/cpp.d"
