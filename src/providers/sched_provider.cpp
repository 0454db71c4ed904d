#include "providers/sched_provider.h"

#include "providers/stable_provider.h"

namespace dtrace::providers {

namespace {

using Test = ProbeGuard::Test;

// Task states of sched_switch's prev_state that are sleeps.
constexpr int64_t kSleepingStates = 0x1 | 0x2;  // TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE

std::vector<StableProbe> schedProbes() {
  // sched_switch(preempt, prev, next, prev_state) runs in prev, before
  // the switch.
  const ArgSource preempted = contextWord(0, "bool");
  const ArgSource nextThread = contextWord(2, "struct task_struct *", "lwpsinfo_t *");
  const ArgSource nextProcess = contextWord(2, "struct task_struct *", "psinfo_t *");
  const ArgSource previousState = contextWord(3, "unsigned int");
  constexpr int kNextTask = 2;
  // sched_waking(p), sched_wakeup(p), sched_wakeup_new(p) run in the waker.
  const ArgSource wokenThread = contextWord(0, "struct task_struct *", "lwpsinfo_t *");
  const ArgSource wokenProcess = contextWord(0, "struct task_struct *", "psinfo_t *");
  const ArgSource runQueueCpu = contextMember(
      0, {{"task_struct", "thread_info"}, {"thread_info", "cpu"}}, 4, "int", "cpuinfo_t *");
  // The current thread, for probes that fire in it.
  ArgSource current;
  current.kind = ArgSource::Kind::CurrentTask;
  current.typeName = "struct task_struct *";
  ArgSource currentThread = current, currentProcess = current;
  currentThread.translatedType = "lwpsinfo_t *";
  currentProcess.translatedType = "psinfo_t *";
  // hrtimer_expire_entry(timer, now): the scheduler's tick is the tick
  // timer's handler.
  ProbeGuard tickTimer =
      guard(Test::Equal, contextMember(0, {{"hrtimer", "function"}}, 8, "void *"));
  tickTimer.symbol = "tick_nohz_handler";
  // At one switch: preempt or sleep, then off-cpu, then on-cpu, as
  // illumos fires them before swtch(), in it before resume(), and after.
  StableProbe offCpu{"off-cpu", {"sched_switch"}, {}, {nextThread, nextProcess}};
  offCpu.eventOrder = 1;
  StableProbe onCpu{"on-cpu", {"sched_switch"}, {}, {}};
  onCpu.contextTaskWord = kNextTask;  // fires for the thread taking the CPU
  onCpu.eventOrder = 2;
  return {
      onCpu,
      offCpu,
      {"preempt", {"sched_switch"}, {guard(Test::NotEqual, preempted, {0})}, {}},
      {"sleep", {"sched_switch"}, {guard(Test::AnyBitSet, previousState, {kSleepingStates})}, {}},
      {"wakeup", {"sched_waking"}, {}, {wokenThread, wokenProcess}},
      {"enqueue",
       {"sched_wakeup", "sched_wakeup_new"},
       {},
       {wokenThread, wokenProcess, runQueueCpu}},
      // Another CPU asked this one to reschedule (a reschedule IPI).
      {"surrender", {"reschedule_entry"}, {}, {currentThread, currentProcess}},
      {"tick", {"hrtimer_expire_entry"}, {tickTimer}, {currentThread, currentProcess}},
  };
}

}  // namespace

std::unique_ptr<Provider> makeSchedProvider() {
  return makeStableProvider(
      "sched", schedProbes(),
      {{"dequeue", "Linux has no tracepoint where a thread leaves a run queue"},
       {"change-pri", "Linux has no tracepoint for a thread's priority change"},
       {"remain-cpu", "Linux has no tracepoint where the scheduler keeps the running thread"}});
}

}  // namespace dtrace::providers
