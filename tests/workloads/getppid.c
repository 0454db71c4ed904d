/* Calls getppid(2) as many times as its argument says (default 10). */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char** argv) {
  long n = argc > 1 ? strtol(argv[1], NULL, 10) : 10;
  for (long i = 0; i < n; i++) syscall(SYS_getppid);
  return 0;
}
