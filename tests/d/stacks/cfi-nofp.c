/* Built -O2 without frame pointers (tst.cfi-*.sh): getppid() from the
 * bottom of a recursion of known depth (once, or every 20 ms for 3 s),
 * through a shared library, or from a signal handler. */
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

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "recursion";
  if (strcmp(what, "recursion") == 0) return recurse(5) == -1;
  if (strcmp(what, "library") == 0) return chain_middle(3) == -1;
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
