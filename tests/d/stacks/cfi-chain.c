/* A shared library built without frame pointers (tst.cfi-gdb.sh). */
#include <unistd.h>
__attribute__((noinline)) int chain_leaf(int n) { return (int)getppid() + n; }
__attribute__((noinline)) int chain_middle(int n) {
  volatile int pad[8];
  pad[n & 7] = n;
  return chain_leaf(pad[n & 7]) + 1;
}
