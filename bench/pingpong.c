// A context-switch-heavy workload: a parent and a child pinned to one CPU
// pass a byte back and forth through two pipes N times, so each round trip
// is two context switches. Prints the nanoseconds per round trip.
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char** argv) {
  long n = argc > 1 ? atol(argv[1]) : 200000;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(0, &one);
  sched_setaffinity(0, sizeof one, &one);
  int there[2], back[2];
  if (pipe(there) || pipe(back)) return 1;
  char c = 0;
  pid_t child = fork();
  if (child == 0) {
    for (long i = 0; i < n; i++) {
      if (read(there[0], &c, 1) != 1 || write(back[1], &c, 1) != 1) _exit(1);
    }
    _exit(0);
  }
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (long i = 0; i < n; i++) {
    if (write(there[1], &c, 1) != 1 || read(back[0], &c, 1) != 1) return 1;
  }
  clock_gettime(CLOCK_MONOTONIC, &b);
  waitpid(child, 0, 0);
  printf("%.1f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n);
  return 0;
}
