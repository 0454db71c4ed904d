/*
 * Calls getppid(2) as many times as its first argument says (default 10),
 * waiting as many milliseconds as its second argument says (default 0)
 * after each call.
 */
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char** argv) {
  long n = argc > 1 ? strtol(argv[1], NULL, 10) : 10;
  long ms = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
  struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
  for (long i = 0; i < n; i++) {
    syscall(SYS_getppid);
    if (ms > 0) nanosleep(&pause, NULL);
  }
  return 0;
}
