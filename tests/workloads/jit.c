/* Runs "JIT-compiled" code, for jstack() tests: copies a small function
 * (getppid(2), with a frame pointer) into anonymous executable memory,
 * names it in /tmp/perf-PID.map as JITs do for Linux profilers, and calls
 * it from run_jit_code N times (the argument, default 3). The map file is
 * left behind, as JITs leave it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* push %rbp; mov %rsp,%rbp; mov $110,%eax (SYS_getppid); syscall; pop %rbp; ret */
static const unsigned char kCode[] = {0x55, 0x48, 0x89, 0xe5, 0xb8, 0x6e, 0x00,
                                      0x00, 0x00, 0x0f, 0x05, 0x5d, 0xc3};

__attribute__((noinline)) void run_jit_code(long (*code)(void), long rounds) {
  for (long i = 0; i < rounds; i++) code();
  __asm__ volatile("" ::: "memory");
}

int main(int argc, char** argv) {
  void* mem =
      mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return 1;
  memcpy(mem, kCode, sizeof kCode);
  char path[64];
  snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
  FILE* map = fopen(path, "w");
  if (!map) return 1;
  fprintf(map, "%lx %zx jit_getppid\n", (unsigned long)mem, sizeof kCode);
  fclose(map);
  run_jit_code((long (*)(void))mem, argc > 1 ? strtol(argv[1], NULL, 10) : 3);
  return 0;
}
