/* Enters the kernel from a known chain of calls, for stack tests: main ->
 * stack_outer -> stack_middle, which calls stack_leaf from two places;
 * stack_leaf makes getppid(2) with the syscall instruction itself, so the
 * user PC at the probe is in stack_leaf. N rounds (the argument, default
 * 3), each entering the kernel twice. Built with frame pointers (Linux's
 * user stack unwinder follows them). */
#include <stdlib.h>
#include <sys/syscall.h>

/* Its frame is made by hand: compilers leave it out of leaf functions.
 * The CFI directives describe it, as a compiler would, for unwinders that
 * read call frame information rather than frame pointers. */
__attribute__((noinline)) void stack_leaf(void) {
  long ret;
  __asm__ volatile(
      "push %%rbp\n\t.cfi_adjust_cfa_offset 8\n\t.cfi_rel_offset %%rbp, 0\n\t"
      "mov %%rsp, %%rbp\n\t.cfi_def_cfa_register %%rbp\n\t"
      "syscall\n\t"
      "pop %%rbp\n\t.cfi_def_cfa %%rsp, 8\n\t.cfi_restore %%rbp"
      : "=a"(ret)
      : "a"((long)SYS_getppid)
      : "rcx", "r11", "memory");
}

/* The two calls return to different addresses of one function. */
__attribute__((noinline)) void stack_middle(void) {
  stack_leaf();
  __asm__ volatile("" ::: "memory");
  stack_leaf();
  __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void stack_outer(long rounds) {
  for (long i = 0; i < rounds; i++) stack_middle();
  __asm__ volatile("" ::: "memory");
}

int main(int argc, char** argv) {
  stack_outer(argc > 1 ? strtol(argv[1], NULL, 10) : 3);
  return 0;
}
