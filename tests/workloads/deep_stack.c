/* Calls getppid(2) from the bottom of a recursion N functions deep (the
 * argument, default 150) under main, for stack depth tests. */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

__attribute__((noinline)) long descend(long levels) {
  long r = levels > 1 ? descend(levels - 1) : syscall(SYS_getppid);
  __asm__ volatile("" ::: "memory"); /* not a tail call */
  return r;
}

int main(int argc, char** argv) { return descend(argc > 1 ? atol(argv[1]) : 150) > 0 ? 0 : 1; }
