# A thread that sleeps: sleep and off-cpu as it leaves the CPU (off-cpu's
# args name the next thread), wakeup and enqueue when woken (args the
# woken thread, enqueue's args[2] its run queue's CPU), on-cpu as it takes
# a CPU again, firing for that thread: its pid, execname and self->
# variables, although Linux's tracepoint runs before the switch.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/sleeper.c" <<'C'
#include <unistd.h>
int main(void) {
  for (int i = 0; i < 5; i++) usleep(20000);
  return 0;
}
C
gcc -o "$work/sleeper" "$work/sleeper.c" || exit 1
$DTRACE -q -c "$work/sleeper" -n '
  sched:::on-cpu /pid == $target/ { self->on = 1; named[execname] = 1; }
  sched:::off-cpu /pid == $target && self->on/ { paired = 1; }
  sched:::off-cpu /args[1]->pr_pid == $target && args[0]->pr_lwpid == $target/ { next_is = 1; }
  sched:::sleep /pid == $target/ { slept = 1; }
  sched:::wakeup /args[1]->pr_pid == $target/ { woken = 1; }
  sched:::enqueue /args[1]->pr_pid == $target && args[2]->cpu_id >= 0 &&
      args[2]->cpu_id < 1024/ { enqueued = 1; }
  END {
    printf("on-cpu runs as the thread taking the CPU: %d\n", named["sleeper"]);
    printf("self-> set at on-cpu is seen at off-cpu: %d\n", paired);
    printf("off-cpu names the next thread: %d\n", next_is);
    printf("sleep: %d, wakeup: %d, enqueue: %d\n", slept, woken, enqueued);
  }'
