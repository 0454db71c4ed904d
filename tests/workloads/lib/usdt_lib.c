// A shared library's USDT probe (position-independent code) guarded by a
// semaphore: the probe's arguments are only computed while a tracer has
// raised usdt_lib_guarded_semaphore (the kernel does, for a uprobe given
// its file offset as ref_ctr_offset). Built into libusdt_lib.so for
// workload usdt, and alone as usdt_lib.o for the note reader's tests.
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

// The name and section <sys/sdt.h> expects: PROVIDER_PROBE_semaphore.
unsigned short usdt_lib_guarded_semaphore __attribute__((section(".probes")));

static long usdt_lib_total;

void usdt_lib_fire(long round) {
  usdt_lib_total += round;
  if (usdt_lib_guarded_semaphore) DTRACE_PROBE2(usdt_lib, guarded, round, usdt_lib_total);
}
