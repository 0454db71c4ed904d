/* Calls getppid(2) N times and prints the mean cost per call in ns, so a
 * tracer's added cost per probe firing can be read off directly. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char** argv) {
  long n = argc > 1 ? strtol(argv[1], NULL, 10) : 2000000;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (long i = 0; i < n; i++) syscall(SYS_getppid);
  clock_gettime(CLOCK_MONOTONIC, &b);
  double ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
  printf("%.1f\n", ns / n);
  return 0;
}
