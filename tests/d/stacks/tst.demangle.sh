# C++ names print as the source wrote them in ustack(), ufunc() and %A;
# -x demangle=0 keeps the mangled form; probefunc stays the symbol's name.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/worker.cpp" <<'CXX'
#include <sys/syscall.h>
#include <unistd.h>
namespace app {
struct Worker {
  __attribute__((noinline)) static long run(int n) {
    long s = 0;
    for (int i = 0; i < n; i++) s += syscall(SYS_getppid);
    return s;
  }
};
}  // namespace app
int main() { return app::Worker::run(3) > 0 ? 0 : 1; }
CXX
g++ -O0 -fno-omit-frame-pointer -o "$work/worker" "$work/worker.cpp" || exit 1
cd "$work"
script='pid$target::*Worker*:entry {
  printf("%s %A\n", probefunc, uregs[R_PC]); @f[ufunc(uregs[R_PC])] = count(); @s[ustack(1)] = count();
}'
$DTRACE -q -c ./worker -n "$script"
$DTRACE -q -x demangle=0 -c ./worker -n "$script"
