# dtrace -h and -G need a program, and -h an output file when it cannot
# name one after a single script.
. ./gen-common.sh
printf 'provider p { probe x(); };\n' > p.d
printf 'provider q { probe y(); };\n' > q.d
cp p.d p.txt
$DTRACE -h
$DTRACE -G -o x.o
$DTRACE -h -s p.d -s q.d
$DTRACE -h -s p.txt
$DTRACE -G -h -s p.d
ls ./*.h ./*.o 2>/dev/null >&2
exit 1
