# Objects of both ELF classes (cc -m32 and -m64) cannot go into one
# program: dtrace -G takes its data model from them and refuses the mix.
. ./gen-common.sh
cp "$USDT/gen-myapp.d" myapp.d
$DTRACE -h -s myapp.d || exit 0
printf '#include "myapp.h"\nvoid f(void) { MYAPP_DONE(); }\n' > f.c
gcc -m64 -c f.c -o f64.o || exit 0
gcc -m32 -c f.c -o f32.o || exit 0
$DTRACE -G -s myapp.d -o probes.o f64.o f32.o
status=$?
[ -e probes.o ] && echo "probes.o written" >&2
exit $status
