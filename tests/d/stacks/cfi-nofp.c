/* Built -O2 without frame pointers (tst.cfi-*.sh): getppid() from the
 * bottom of a recursion of known depth (once, or every 20 ms for 3 s),
 * through a shared library (linked, or dlopen'd: argv[2]), or from a
 * signal handler; or busy at the bottom of a recursion. */
#include <dlfcn.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

int chain_middle(int n);

__attribute__((noinline)) int leaf(int n) { return (int)getppid() + n; }

__attribute__((noinline)) int recurse(int depth) {
  volatile char pad[40];
  pad[depth % 40] = (char)depth;
  if (depth == 0) return leaf(pad[0]);
  return recurse(depth - 1) + pad[depth % 40];
}

__attribute__((noinline)) void on_signal(int sig) { leaf(sig); }

/* Busy in user space at the bottom of a recursion (for profiles). */
__attribute__((noinline)) long spin(long n) {
  volatile long sum = 0;
  for (long i = 0; i < n; i++) sum += i;
  return sum;
}

__attribute__((noinline)) long burn(int depth, long n) {
  volatile char pad[24];
  pad[depth % 24] = (char)depth;
  if (depth == 0) return spin(n);
  return burn(depth - 1, n) + pad[depth % 24];
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "recursion";
  if (strcmp(what, "recursion") == 0) return recurse(5) == -1;
  if (strcmp(what, "library") == 0) return chain_middle(3) == -1;
  if (strcmp(what, "dlopen") == 0) { /* the library mapped late, used 300 ms later */
    void *chain = dlopen(argv[2], RTLD_NOW);
    int (*middle)(int) = chain ? (int (*)(int))dlsym(chain, "chain_middle") : 0;
    if (!middle) return 1;
    usleep(300000);
    return middle(3) == -1;
  }
  if (strcmp(what, "spin") == 0) return burn(4, 1000000000) == -1;
  if (strcmp(what, "loop") == 0) { /* for 3 s, a process dtrace did not start */
    for (int i = 0; i < 150; i++) {
      recurse(5);
      usleep(20000);
    }
    return 0;
  }
  signal(SIGUSR1, on_signal);
  raise(SIGUSR1);
  return 0;
}
