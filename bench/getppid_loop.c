/* Calls getppid(2) (or the system call numbered by the second argument)
 * N times and prints the mean cost per call in ns, so a tracer's added
 * cost per probe firing can be read off directly. The cost is the thread's
 * own CPU time (user and system, where probe programs run): on a shared
 * machine, time spent waiting for a CPU is not counted. CLOCK=wall prints
 * elapsed time instead. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char** argv) {
  long n = argc > 1 ? strtol(argv[1], NULL, 10) : 2000000;
  long nr = argc > 2 ? strtol(argv[2], NULL, 10) : SYS_getppid;
  const char* clock_name = getenv("CLOCK");
  clockid_t clock =
      clock_name && strcmp(clock_name, "wall") == 0 ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID;
  struct timespec a, b;
  clock_gettime(clock, &a);
  for (long i = 0; i < n; i++) syscall(nr);
  clock_gettime(clock, &b);
  double ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
  printf("%.1f\n", ns / n);
  return 0;
}
