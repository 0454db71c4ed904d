# dtrace -C reads system headers as DTrace does: cpp runs without GNU's or
# C99's predefined macros, so glibc's headers give declarations D reads;
# their C function definitions (glibc's byte swapping) are skipped, and a
# header's typedef of one of D's integer names (id_t) keeps D's.
script=$(mktemp --suffix=.d)
trap 'rm -f "$script"' EXIT
cat >"$script" <<'D'
#include <stdint.h>
#include <sys/types.h>
#include <endian.h>
#include <stddef.h>
BEGIN
{
	printf("%d %d %d %d\n", sizeof (uint64_t), sizeof (int16_t), sizeof (off_t),
	    BYTE_ORDER == LITTLE_ENDIAN);
	exit(0);
}
D
$DTRACE -C -q -s "$script"
