# Each thread has its own thread-locals: four threads making three calls
# each count to three apiece, each starting from an unset (0) variable,
# and storing 0 clears one for the rest of the firing and after.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/threads.c" <<'C'
#include <pthread.h>
#include <unistd.h>
static void* calls(void* arg) {
  (void)arg;
  for (int i = 0; i < 3; i++) getppid();
  return 0;
}
int main(void) {
  pthread_t t[4];
  for (int i = 0; i < 4; i++) pthread_create(&t[i], 0, calls, 0);
  for (int i = 0; i < 4; i++) pthread_join(t[i], 0);
  return 0;
}
C
gcc -pthread -o "$work/threads" "$work/threads.c" || exit 1
cat >"$work/self.d" <<'D'
self int n, gone;
syscall::getppid:entry /pid == $target && self->n == 0/ { @unset = count(); }
syscall::getppid:entry /pid == $target/ { self->n++; self->gone = 1; self->gone = 0; }
syscall::getppid:return /pid == $target/ {
  @most = max(self->n);
  @cleared = sum(self->gone);
}
END {
  printa("threads starting unset %@d\n", @unset);
  printa("most calls one thread saw %@d\n", @most);
  printa("cleared reads %@d\n", @cleared);
}
D
$DTRACE -q -c "$work/threads" -s "$work/self.d"
