// The stages of a program's start, each with a system call of its own for
// the evaltime tests: its library's initializer calls getuid
// (lib/evaltime_lib.c), its own constructor getgid (after the entry
// point, before main), main geteuid.
#include <unistd.h>

int evaltimeLibraryLoaded(void);

__attribute__((constructor)) static void programConstructor(void) { (void)getgid(); }

int main(void) {
  (void)geteuid();
  return evaltimeLibraryLoaded() ? 0 : 1;
}
