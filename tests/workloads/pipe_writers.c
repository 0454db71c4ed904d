// Four threads write into one pipe while the main thread drains it: every
// write takes the pipe's mutex (struct mutex), so the writers contend for
// it, spinning while its owner runs and sleeping while it does not.
#include <pthread.h>
#include <unistd.h>

enum { kThreads = 4, kWrites = 20000, kChunk = 64 };

static int fds[2];

static void *writer(void *arg) {
  char chunk[kChunk] = {0};
  for (int i = 0; i < kWrites; i++) {
    if (write(fds[1], chunk, sizeof chunk) != sizeof chunk) break;
  }
  return arg;
}

int main(void) {
  if (pipe(fds) != 0) return 1;
  pthread_t threads[kThreads];
  for (int i = 0; i < kThreads; i++) pthread_create(&threads[i], 0, writer, 0);
  char buf[4096];
  long left = (long)kThreads * kWrites * kChunk;
  while (left > 0) {
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n <= 0) return 1;
    left -= n;
  }
  for (int i = 0; i < kThreads; i++) pthread_join(threads[i], 0);
  return 0;
}
