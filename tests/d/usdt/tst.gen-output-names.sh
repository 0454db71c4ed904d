# Where dtrace -h and -G write, as illumos dtrace decides: -o; else the
# script's base name with .d made .h or .o, in the current directory; -G
# of several scripts without -o writes one object each. -s may come before
# or after the mode, objects anywhere among the options.
. ./gen-common.sh
mkdir src out
cp "$USDT/gen-myapp.d" src/myapp.d
printf 'provider other { probe tick(int); };\n' > src/other.d
$DTRACE -h -s src/myapp.d && ls
rm -f myapp.h
$DTRACE -s src/myapp.d -h -o out/probes.h && ls out && grep -m1 -c '_PROBES_H' out/probes.h
gcc -O2 -c -Isrc -Iout -include out/probes.h -x c /dev/null -o empty.o
$DTRACE -G -s src/myapp.d && ls *.o
rm myapp.o
$DTRACE -s src/myapp.d empty.o -G -o out/probes.o && ls out
$DTRACE -G -s src/myapp.d -s src/other.d && ls *.o
rm ./*.o
$DTRACE -G -s src/myapp.d -s src/other.d -o both.o && ls ./*.o
nm both.o | awk '{ print $3 }' | sort
# One header for several scripts needs -o.
$DTRACE -h -s src/myapp.d -s src/other.d -o both.h && grep -c '^#define.*_ENABLED()' both.h
# Errors leave no output behind.
printf 'provider broken { probe x(struct s); };\n' > src/broken.d
$DTRACE -h -s src/broken.d 2>/dev/null || echo "status $?, $(ls broken.h 2>&1 | sed 's/.*: //')"
$DTRACE -G -s src/broken.d 2>/dev/null || echo "status $?, $(ls broken.o 2>&1 | sed 's/.*: //')"
