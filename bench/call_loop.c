/* Calls traced_call() `count` times and prints the nanoseconds per call
 * (the pid and uprobe benchmarks' workload). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noipa)) long traced_call(long x) { return x + 1; }

int main(int argc, char** argv) {
  long count = argc > 1 ? atol(argv[1]) : 1000000;
  struct timespec a, b;
  long sum = 0;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (long i = 0; i < count; i++) sum += traced_call(i);
  clock_gettime(CLOCK_MONOTONIC, &b);
  double ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
  fprintf(stderr, "sum %ld\n", sum);
  printf("%.1f\n", ns / count);
  return 0;
}
