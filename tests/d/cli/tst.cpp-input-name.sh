# cpp's diagnostics name the script /dev/stdin, as Oracle's and illumos's
# dtrace name the input they give cpp (/dev/stdin, /dev/fd/N); DTrace's own
# messages name the script, and so do errors after an #include. Options
# come from DTRACE_OPT_<NAME> variables too (here cpp's own arguments).
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2
printf '\n#include "missing.h"\nBEGIN { exit(0); }\n' > inc.d
printf '#if 1\n#else\n#else\n#endif\n#define\n' > else.d
printf '#include "defs.h"\nBEGIN { x = ; }\n' > after.d
printf '#define Y 1\n' > defs.h
export DTRACE_OPT_CPPARGS="-fno-diagnostics-show-caret -fno-show-column"
$DTRACE -C -s inc.d 2>&1
$DTRACE -C -s else.d 2>&1
$DTRACE -C -e -s after.d 2>&1
true
