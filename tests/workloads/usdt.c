// USDT probes (systemtap's <sys/sdt.h>) for the note reader's tests and for
// scripts that trace them: provider usdt_workload with probes of none to
// several arguments, in registers, in memory and constants, and one probe
// at two sites; and, in libusdt_lib.so, a library's probe guarded by a
// semaphore. Usage: usdt [ROUNDS] (1 by default): fires every probe ROUNDS
// times.
#include <stdlib.h>
#include <sys/sdt.h>

void usdt_lib_fire(long round);  // libusdt_lib.so

// A global argument: the compiler names it in the spec ("8@...(%rip)").
long usdt_workload_counter = 7;
long usdt_workload_table[4] = {10, 20, 30, 40};

__attribute__((noinline)) static void fire(long round, const long* table) {
  // Read from memory where it lives, so its spec is a memory operand.
  volatile int on_stack = (int)round * 2;
  DTRACE_PROBE(usdt_workload, none);
  DTRACE_PROBE1(usdt_workload, one, round);
  DTRACE_PROBE3(usdt_workload, registers, round, (int)round + 1, (char)round);
  DTRACE_PROBE2(usdt_workload, stack, on_stack, round);
  DTRACE_PROBE3(usdt_workload, constants, 5, -1L, (unsigned char)200);
  DTRACE_PROBE2(usdt_workload, global, usdt_workload_counter, table[round & 3]);
  DTRACE_PROBE1(usdt_workload, twice, round);
}

__attribute__((noinline)) static void fire_again(long round) {
  DTRACE_PROBE1(usdt_workload, twice, round + 100);
}

int main(int argc, char** argv) {
  const long rounds = argc > 1 ? atol(argv[1]) : 1;
  for (long round = 0; round < rounds; round++) {
    fire(round, usdt_workload_table);
    fire_again(round);
    usdt_lib_fire(round);
    usdt_workload_counter++;
  }
  return 0;
}
