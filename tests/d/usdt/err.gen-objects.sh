# dtrace -G's operands must be relocatable objects of one class and
# machine, agreeing with -32/-64, whose probes of this script's providers
# the script declares; each refusal in libdtrace's words, after
# "failed to link script".
. ./gen-common.sh
printf 'provider myapp { probe done(); };\n' > myapp.d
$DTRACE -h -s myapp.d || exit 0
printf '#include "myapp.h"\nint main(void) { MYAPP_DONE(); return 0; }\n' > main.c
gcc -c main.c -o main.o || exit 0
echo 'not an object' > text.o
ar rc lib.a main.o
$DTRACE -G -s myapp.d text.o
$DTRACE -G -s myapp.d lib.a
$DTRACE -G -s myapp.d missing.o
$DTRACE -G -s myapp.d /proc/self/exe  # an executable
$DTRACE -G -32 -s myapp.d main.o
# A header from another version of the provider: a probe the script lacks.
printf 'provider myapp { probe started(); };\n' > old.d
$DTRACE -G -s old.d main.o
printf 'provider elsewhere { probe done(); };\n' > elsewhere.d
$DTRACE -G -s elsewhere.d main.o -o elsewhere.o || echo "another provider's notes refused" >&2
ls ./*.o | grep -v -e main.o -e text.o -e elsewhere.o >&2
exit 1
