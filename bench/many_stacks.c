/* Enters the kernel from 10,000 distinct user stacks: each of 100 outer
 * functions calls each of 100 inner ones, which make getppid(2) with the
 * syscall instruction. Built with frame pointers (-fno-omit-frame-pointer). */
#define ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9)
#define INNER(t) INNER1(t, 0) INNER1(t, 1) INNER1(t, 2) INNER1(t, 3) INNER1(t, 4) \
  INNER1(t, 5) INNER1(t, 6) INNER1(t, 7) INNER1(t, 8) INNER1(t, 9)
#define INNER1(t, u)                                                                 \
  __attribute__((noinline)) void inner_##t##u(void) {                                \
    long ret;                                                                        \
    __asm__ volatile("push %%rbp\n\tmov %%rsp, %%rbp\n\tsyscall\n\tpop %%rbp"       \
                     : "=a"(ret) : "a"(110L) : "rcx", "r11", "memory");             \
  }
ROWS(INNER)

typedef void (*fn)(void);
#define ADDR(t) ADDR1(t, 0) ADDR1(t, 1) ADDR1(t, 2) ADDR1(t, 3) ADDR1(t, 4) \
  ADDR1(t, 5) ADDR1(t, 6) ADDR1(t, 7) ADDR1(t, 8) ADDR1(t, 9)
#define ADDR1(t, u) inner_##t##u,
static fn inner[100] = {ROWS(ADDR)};

#define OUTER(t) OUTER1(t, 0) OUTER1(t, 1) OUTER1(t, 2) OUTER1(t, 3) OUTER1(t, 4) \
  OUTER1(t, 5) OUTER1(t, 6) OUTER1(t, 7) OUTER1(t, 8) OUTER1(t, 9)
#define OUTER1(t, u)                                        \
  __attribute__((noinline)) void outer_##t##u(void) {       \
    for (int i = 0; i < 100; i++) inner[i]();               \
    __asm__ volatile("" ::: "memory");                      \
  }
ROWS(OUTER)

#define CALL(t) CALL1(t, 0) CALL1(t, 1) CALL1(t, 2) CALL1(t, 3) CALL1(t, 4) \
  CALL1(t, 5) CALL1(t, 6) CALL1(t, 7) CALL1(t, 8) CALL1(t, 9)
#define CALL1(t, u) outer_##t##u();

int main(void) {
  ROWS(CALL)
  return 0;
}
