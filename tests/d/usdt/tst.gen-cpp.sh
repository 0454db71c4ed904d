# -C runs the provider file through cpp first, with -D, -U and -I: types
# and even probes can come from macros, as PostgreSQL's probes.d has them.
. ./gen-common.sh
mkdir inc
printf '#define BlockNumber unsigned int\n' > inc/types.h
cat > prov.d <<'EOS'
#include "types.h"
#define Oid unsigned int
#define bool unsigned char
provider db {
	probe read(BlockNumber, Oid, bool);
#ifdef WITH_WRITES
	probe write(BlockNumber, LSN);
#endif
#ifndef NO_CHECKPOINTS
	probe checkpoint();
#endif
};
EOS
$DTRACE -C -I inc -D WITH_WRITES -D 'LSN=unsigned long long' -U NO_CHECKPOINTS -h -s prov.d || exit 1
grep -o '"\\t.asciz \\"[a-z_]*\\"\\n"' prov.h | sed -n '2~2p'
grep -o 'asciz \\"[^\\]*@[^\\]*\\"' prov.h
$DTRACE -C -Iinc -DNO_CHECKPOINTS -G -s prov.d && nm prov.o | awk '{ print $3 }'
