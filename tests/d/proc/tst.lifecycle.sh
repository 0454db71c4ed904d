# A process's life as proc sees it: each child's creation, first return to
# user space, exec attempt and outcome, and exit with its reason
# (CLD_EXITED 1, CLD_KILLED 2); exec-failure's args[0] is the errno. A
# failed exec fires exec (from the failing call's return) then
# exec-failure; the path is read from the child's memory.
# Parent and children run on different CPUs: -x temporal prints their
# records in the order they happened (by default each CPU's come in turn).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/lifecycle.c" <<'C'
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
static void child(const char* path) {
  pid_t p = fork();
  if (p == 0) {
    if (path) {
      execl(path, path, (char*)0);
      _exit(7);
    }
    kill(getpid(), SIGTERM);
    pause();
  }
  waitpid(p, 0, 0);
}
int main(void) {
  child("/bin/true");
  child("/nonexistent/program");
  child(0);
  return 3;
}
C
gcc -o "$work/lifecycle" "$work/lifecycle.c" || exit 1
$DTRACE -q -x temporal -c "$work/lifecycle" -n '
  proc:::create /pid == $target/ {
    printf("create: child of the target %d\n", args[0]->pr_ppid == $target);
  }
  proc:::start /ppid == $target/ { printf("start: %s\n", execname); }
  proc:::lwp-start /ppid == $target/ { printf("lwp-start: first thread %d\n", tid == pid); }
  proc:::exec /ppid == $target/ { printf("exec: %s\n", args[0]); }
  proc:::exec-success /ppid == $target/ { printf("exec-success: %s\n", execname); }
  proc:::exec-failure /ppid == $target/ { printf("exec-failure: errno %d\n", args[0]); }
  proc:::exit /pid == $target || ppid == $target/ {
    printf("exit: %s reason %d\n", execname, args[0]);
  }'
