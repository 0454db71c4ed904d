# Errors in #include'd files, or after `#line N "file"`, name the file.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/inc"
printf '#define X 1\n\nBEGIN { x = ; }\n' > "$dir/inc/def.h"
printf 'BEGIN { y = 1; }\n#include "inc/def.h"\n' > "$dir/c3.d"
printf 'BEGIN { y = 1; }\n#line 20 "other.d"\nBEGIN { x = ; }\n' > "$dir/l.d"
cd "$dir" || exit 2
$DTRACE -C -e -s c3.d
$DTRACE -e -s l.d
exit 1
