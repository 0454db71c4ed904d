/* Makes a known set of system calls: N getppid(2), N failing close(-1),
 * and one write(2) of "hello" to /dev/null. N is the argument (default 5). */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char** argv) {
  long n = argc > 1 ? strtol(argv[1], NULL, 10) : 5;
  for (long i = 0; i < n; i++) {
    syscall(SYS_getppid);
    syscall(SYS_close, -1L);
  }
  /* Touch the path first: a probe can read only resident user memory. */
  static const char path[] = "/dev/null";
  const volatile char* touch = path;
  (void)touch[0];
  int fd = open(path, O_WRONLY);
  syscall(SYS_write, fd, "hello", 5L);
  close(fd);
  return 0;
}
