# A printf() or printa() field width or precision C's printf could not
# print (beyond INT_MAX) is one compile error, not an overflow.
$DTRACE -e -n 'BEGIN { printf("%99999999999999999999d\n", 1); }'
$DTRACE -e -n 'BEGIN { printf("%.2147483648s\n", "x"); }'
$DTRACE -e -n 'BEGIN { @c["x"] = count(); printa("%-8s %5666666666666666s %@d\n", @c); }'
$DTRACE -e -n 'BEGIN { printf("%2147483647d\n", 1); }' && echo "INT_MAX compiles" >&2
exit 1
