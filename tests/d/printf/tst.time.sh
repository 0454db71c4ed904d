# %Y and %T show a nanosecond time as dtrace(1M) does: "2024 Jan  3 17:20:00"
# and RFC 822, in the local time zone; walltimestamp is such a time.
export TZ=UTC
$DTRACE -qn 'BEGIN {
	printf("%Y|%T\n", (uint64_t)1704302400 * 1000000000, (uint64_t)1704302400 * 1000000000);
	printf("[%25Y] [%-25Y]\n", 1704302400000000000LL, 1704302400000000000LL);
	printf("%Y\n", walltimestamp);
	exit(0);
}' | sed -e "3s/^$(date -u +%Y) [A-Z][a-z][a-z] [ 1-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-6][0-9]\$/walltimestamp ok/"
