// A shared library whose initializer makes a system call of its own
// (getuid), for the evaltime tests: it runs after the dynamic linker has
// mapped the libraries (preinit) and before the program's entry point
// (postinit).
#include <unistd.h>

__attribute__((constructor)) static void libraryInitializer(void) { (void)getuid(); }

int evaltimeLibraryLoaded(void) { return 1; }
