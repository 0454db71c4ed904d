/* Enters the kernel once from a known place with known registers: getppid(2)
 * with rdi = 0x1234567 and r8 = 0x89abcdef (the kernel ignores both), from a
 * function that keeps a frame pointer. Prints the PC after the syscall
 * instruction (uregs[R_PC] at the probe) and that function's return address
 * (ucaller there). */
#include <stdio.h>
#include <sys/syscall.h>

__attribute__((noinline, optimize("no-omit-frame-pointer"))) static void enter(void) {
  void* after;
  long ret;
  register long r8 __asm__("r8") = 0x89abcdef;
  __asm__ volatile("lea 1f(%%rip), %1\n\tsyscall\n1:"
                   : "=a"(ret), "=&r"(after)
                   : "a"((long)SYS_getppid), "D"(0x1234567L), "r"(r8)
                   : "rcx", "r11", "memory");
  printf("pc %lx ucaller %lx\n", (unsigned long)after, (unsigned long)__builtin_return_address(0));
}

int main(void) {
  enter();
  return 0;
}
