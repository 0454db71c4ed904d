/*
 * Calls getppid(2) once on each CPU its arguments name, in turn (e.g.
 * `cpu_hop 1 1 0 0 1 1`), moving itself to that CPU before the call. It
 * first sleeps for 200 ms, so that a tracer has read what its start wrote
 * and the calls land in one switch interval.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char** argv) {
  struct timespec settle = {0, 200 * 1000000L};
  nanosleep(&settle, NULL);
  for (int i = 1; i < argc; i++) {
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    CPU_SET(atoi(argv[i]), &cpus);
    if (sched_setaffinity(0, sizeof cpus, &cpus) != 0) {
      perror("sched_setaffinity");
      return 1;
    }
    syscall(SYS_getppid);
  }
  return 0;
}
