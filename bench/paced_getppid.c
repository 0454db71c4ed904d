/* Calls getppid(2) at a steady rate for a while, on one CPU, and says how
 * many calls it made: the events a soak test must account for exactly.
 *   paced_getppid RATE SECONDS [CPU]
 * RATE calls per second (0: as fast as it can), spread evenly: each
 * millisecond's share is made, then the loop sleeps until the next one
 * (a loop that falls behind catches up without sleeping, and stops on
 * time all the same). Prints
 * "calls N", "seconds S" and "rate R" (calls per second reached). */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s RATE SECONDS [CPU]\n", argv[0]);
    return 2;
  }
  const double rate = strtod(argv[1], NULL);
  const double seconds = strtod(argv[2], NULL);
  if (argc > 3) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(atoi(argv[3]), &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) perror("sched_setaffinity");
  }
  long long calls = 0;
  const double start = now();
  double elapsed = 0;
  while (elapsed < seconds) {
    /* The calls due by the end of this millisecond, or a batch. */
    const double slice = (double)((long long)(elapsed * 1000) + 1) / 1000;
    const long long due =
        rate > 0 ? (long long)(rate * (slice < seconds ? slice : seconds)) : calls + 1000;
    /* At most a batch between looks at the clock, so that a loop that
     * cannot keep up still stops on time. */
    for (int batch = 0; calls < due && batch < 1000; batch++) {
      syscall(SYS_getppid);
      calls++;
    }
    elapsed = now() - start;
    if (rate > 0 && elapsed < slice) {
      const double wait = slice - elapsed;
      struct timespec pause = {0, (long)(wait * 1e9)};
      nanosleep(&pause, NULL);
      elapsed = now() - start;
    }
  }
  printf("calls %lld\nseconds %.3f\nrate %.0f\n", calls, elapsed, (double)calls / elapsed);
  return 0;
}
