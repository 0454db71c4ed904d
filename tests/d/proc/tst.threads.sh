# Threads: lwp-create in the creating thread with the new thread's
# lwpsinfo_t and its process's psinfo_t, lwp-start in each new thread,
# lwp-exit for every thread (the last one too), exit once.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/threads.c" <<'C'
#include <pthread.h>
static void* run(void* arg) { return arg; }
int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, run, 0);
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  return 0;
}
C
gcc -pthread -o "$work/threads" "$work/threads.c" || exit 1
$DTRACE -q -c "$work/threads" -n '
  proc:::lwp-create /pid == $target/ {
    @["lwp-create: new thread, same process"] =
        sum(args[0]->pr_lwpid != tid && args[1]->pr_pid == $target);
  }
  proc:::create /pid == $target/ { @["create"] = sum(1); }
  proc:::lwp-start /pid == $target/ { @["lwp-start: not the first thread"] = sum(tid != pid); }
  proc:::lwp-exit /pid == $target/ { @["lwp-exit"] = sum(1); }
  proc:::exit /pid == $target/ { @["exit"] = sum(1); }
  END { printa("%-40s %@d\n", @); }'
