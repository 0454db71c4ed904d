# Provider definitions dtrace -h and -G refuse, with the line and, with
# -x errtags, the tag.
. ./gen-common.sh
check() { printf "$1" > bad.d; $DTRACE -x errtags -h -s bad.d -o bad.h; }
check 'provider p {\n\tprobe x(int, struct s);\n};\n'
check 'provider p { probe x(float); };\n'
check 'provider p { probe x(int, ...); };\n'
check 'provider p { probe x(void, int); };\n'
check 'provider p2 { probe x(); };\n'
check 'provider p { probe x(int); };\nprovider p { probe x(long); };\n'
check 'provider p { probe x(int a) : (int a, int b); };\n'
check 'provider p { probe x(pid_t, Oid); };\n'
check 'provider p { probe x(int) }\n'
# Without -C a provider file's #define is not D.
printf '#define Oid unsigned int\nprovider p { probe x(Oid); };\n' > cpp.d
$DTRACE -G -s cpp.d
ls ./*.h ./*.o 2>/dev/null >&2
exit 1
