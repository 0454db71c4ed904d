# sdt probes are kernel tracepoints, args[] their arguments typed from BTF
# (sched_process_fork passes the parent and child tasks), argN the same
# values as 64-bit words.
# Parent and children run on different CPUs: -x temporal prints their
# records in the order they happened (by default each CPU's come in turn).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/forker.c" <<'C'
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
  for (int i = 0; i < 2; i++) {
    pid_t p = fork();
    if (p == 0) _exit(i);
    waitpid(p, 0, 0);
  }
  return 0;
}
C
gcc -o "$work/forker" "$work/forker.c" || exit 1
$DTRACE -q -x temporal -c "$work/forker" -n '
  sdt:sched::sched_process_fork /args[0]->tgid == $target/ {
    printf("%s:%s forked %s, its parent the target %d, arg1 is args[1] %d\n", probemod,
           probename, stringof(args[1]->comm), args[1]->real_parent->tgid == $target,
           arg1 == (uint64_t)args[1]);
  }
  sdt:sched::sched_process_exit /ppid == $target/ { printf("child exit, group dead %d\n", args[1]); }'
