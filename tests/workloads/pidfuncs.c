/* Functions with known arguments and return values for the pid provider's
 * tests: add8() takes eight arguments (two on the stack), twice() returns
 * from two places, and main() calls each `count` times (default 3). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noipa)) long add8(long a, long b, long c, long d, long e, long f, long g,
                                    long h) {
  return a + b + c + d + e + f + g + h;
}

__attribute__((noipa)) long twice(long x) {
  if (x < 0) return -1;
  return 2 * x;
}

int main(int argc, char** argv) {
  int count = argc > 1 ? atoi(argv[1]) : 3;
  long sum = 0;
  for (int i = 0; i < count; i++) sum += add8(i, 1, 2, 3, 4, 5, 6, 7) + twice(i) + twice(-1);
  printf("sum %ld\n", sum);
  return 0;
}
