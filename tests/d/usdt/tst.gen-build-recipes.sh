# The commands PostgreSQL's and CPython's builds run with --enable-dtrace /
# --with-dtrace, unchanged: their sed renames of the macros, -C, objects
# after -s, and configure's question whether probes need -G (asked with a
# script that declares no provider).
. ./gen-common.sh
DTRACEFLAGS=""
# PostgreSQL: src/backend/utils/Makefile and src/backend/Makefile.
cat > probes.d <<'EOS'
#define LocalTransactionId unsigned int
#define LWLockMode int
#define bool unsigned char
provider postgresql {
	probe transaction__start(LocalTransactionId);
	probe lwlock__acquire(const char *, LWLockMode);
	probe sort__done(bool, long);
};
EOS
$DTRACE -C -h -s probes.d -o probes.h.tmp || exit 1
sed -e 's/POSTGRESQL_/TRACE_POSTGRESQL_/g' probes.h.tmp > probes.h
cat > xact.c <<'EOS'
#include "probes.h"
void start(unsigned int xid, const char *lock) {
	TRACE_POSTGRESQL_TRANSACTION_START(xid);
	if (TRACE_POSTGRESQL_LWLOCK_ACQUIRE_ENABLED())
		TRACE_POSTGRESQL_LWLOCK_ACQUIRE(lock, 1);
	TRACE_POSTGRESQL_SORT_DONE(1, 12L);
}
int main(void) { start(7, "WALWrite"); return 0; }
EOS
gcc -O2 -Wall -Werror -c xact.c -o xact.o || exit 1
$DTRACE $DTRACEFLAGS -C -G -s probes.d xact.o -o utils_probes.o || exit 1
gcc xact.o utils_probes.o -o postgres && ./postgres && note_summary postgres | sort
# CPython: configure, then Makefile.pre.in's rules.
echo 'BEGIN{}' > conftest.d
"$DTRACE" $DFLAGS -G -s conftest.d -o conftest.o > /dev/null 2>&1 && echo "DTrace probes require linking: yes"
cat > pydtrace.d <<'EOS'
provider python {
    probe function__entry(const char *, const char *, int);
    probe gc__start(int);
    probe gc__done(long);
};

#pragma D attributes Evolving/Evolving/Standard provider python provider
#pragma D attributes Evolving/Evolving/Standard provider python args
EOS
$DTRACE $DFLAGS -o pydtrace_probes.h -h -s pydtrace.d || exit 1
sed 's/PYTHON_/PyDTrace_/' pydtrace_probes.h > pydtrace_probes.h.tmp
mv pydtrace_probes.h.tmp pydtrace_probes.h
cat > ceval.c <<'EOS'
#include "pydtrace_probes.h"
int main(void) {
	if (PyDTrace_FUNCTION_ENTRY_ENABLED())
		return 1;
	PyDTrace_FUNCTION_ENTRY("x.py", "f", 3);
	PyDTrace_GC_START(2);
	PyDTrace_GC_DONE(10L);
	return 0;
}
EOS
gcc -O2 -Wall -Werror -c ceval.c -o ceval.o || exit 1
$DTRACE $DFLAGS -o pydtrace.o -G -s pydtrace.d ceval.o || exit 1
gcc ceval.o pydtrace.o -o python && ./python && note_summary python | sort
