# Signals: signal-send in the sender (args[0], args[1] the receiver's
# lwpsinfo_t and psinfo_t, args[2] the signal), signal-clear when sigwait
# takes a pending one, signal-handle before a handler runs (args[2] the
# handler's address).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/signals.c" <<'C'
#include <signal.h>
#include <unistd.h>
static void handler(int sig) { (void)sig; }
int main(void) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGUSR1);
  sigprocmask(SIG_BLOCK, &set, 0);
  kill(getpid(), SIGUSR1);
  int sig = 0;
  sigwait(&set, &sig);
  signal(SIGUSR2, handler);
  kill(getpid(), SIGUSR2);
  return 0;
}
C
gcc -o "$work/signals" "$work/signals.c" || exit 1
$DTRACE -q -c "$work/signals" -n '
  proc:::signal-send /args[1]->pr_pid == $target/ {
    printf("send %d to %s, thread %d\n", args[2], args[1]->pr_fname, args[0]->pr_lwpid == $target);
  }
  proc:::signal-clear /pid == $target/ { printf("clear %d\n", args[0]); }
  proc:::signal-handle /pid == $target/ {
    printf("handle %d, handler set %d\n", args[0], args[2] != 0);
  }'
