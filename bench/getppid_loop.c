/* Calls getppid(2) N times and prints the mean cost per call in ns, so a
 * tracer's added cost per probe firing can be read off directly. With -r it
 * prints, after that line, the CPU seconds (user + system) it used itself,
 * so a tracer's own CPU time can be told from its workload's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char** argv) {
  int report_cpu = argc > 1 && strcmp(argv[1], "-r") == 0;
  if (report_cpu) argv++, argc--;
  long n = argc > 1 ? strtol(argv[1], NULL, 10) : 2000000;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (long i = 0; i < n; i++) syscall(SYS_getppid);
  clock_gettime(CLOCK_MONOTONIC, &b);
  double ns = (b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec);
  printf("%.1f\n", ns / n);
  if (report_cpu) {
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    printf("cpu %.6f\n", u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec +
                              u.ru_stime.tv_usec / 1e6);
  }
  return 0;
}
