# A library's error fails the program, naming the library's file; a
# dependency on no library and a cycle of dependencies are refused before
# any library is compiled.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
mkdir clause syntax missing cycle
printf 'BEGIN\n{\n\tno_such_action();\n}\n' > clause/lib.d
printf 'inline int x = 1;\ninline int y = ;\n' > syntax/lib.d
$DTRACE -L clause -n 'BEGIN { exit(0); }'
printf 'BEGIN { exit(0); }\n' | $DTRACE -x libdir=syntax -s /dev/stdin
printf '#pragma D depends_on library gone.d\n' > missing/lib.d
$DTRACE -L missing -e -n 'BEGIN { exit(0); }'
printf '#pragma D depends_on library second.d\n' > cycle/first.d
printf '#pragma D depends_on library third.d\n' > cycle/second.d
printf '#pragma D depends_on library first.d\n' > cycle/third.d
$DTRACE -L cycle -e -n 'BEGIN { exit(0); }'
