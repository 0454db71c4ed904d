/* Calls getppid(2) N times from the bottom of a recursion D frames deep,
 * in code built without frame pointers (bench/cfi-unwind.sh), and prints
 * the mean CPU time per call in ns, as getppid_loop.c does. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long calls;

__attribute__((noinline)) static double bottom(void) {
  struct timespec a, b;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
  for (long i = 0; i < calls; i++) syscall(SYS_getppid);
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
  return ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / calls;
}

__attribute__((noinline)) static double down(int depth) {
  volatile char pad[24];
  pad[depth % 24] = (char)depth;
  if (depth <= 0) return bottom();
  return down(depth - 1) + pad[depth % 24] * 0.0;
}

int main(int argc, char **argv) {
  calls = argc > 1 ? strtol(argv[1], NULL, 10) : 200000;
  printf("%.1f\n", down(argc > 2 ? atoi(argv[2]) : 0));
  return 0;
}
