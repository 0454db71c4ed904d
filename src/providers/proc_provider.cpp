#include "providers/proc_provider.h"

#include <sched.h>
#include <sys/syscall.h>

#include "providers/stable_provider.h"

namespace dtrace::providers {

namespace {

using Test = ProbeGuard::Test;

// raw_syscalls:sys_enter passes (regs, id), sys_exit (regs, ret); the
// system call's number is in the saved registers' orig_ax.
ArgSource syscallNumber() { return contextMember(0, {{"pt_regs", "orig_ax"}}, 8, "long"); }
ArgSource syscallResult() { return contextWord(1, "long"); }

ArgSource special(ArgSource::Kind kind, std::string type) {
  ArgSource a;
  a.kind = kind;
  a.typeName = std::move(type);
  return a;
}

StableProbe execAt(std::string function, std::vector<std::string> tracepoints,
                   std::vector<ProbeGuard> guards, ArgSource path) {
  StableProbe p{"exec", std::move(tracepoints), std::move(guards), {std::move(path)}};
  p.function = std::move(function);
  return p;
}

// A system call among `numbers` returning an error.
std::vector<ProbeGuard> failedCall(std::vector<int64_t> numbers) {
  return {guard(Test::Negative, syscallResult()),
          guard(Test::OneOf, syscallNumber(), std::move(numbers))};
}

// A system call's path argument, in the saved register `reg`.
ArgSource userPath(const char* reg) {
  ArgSource a = contextMember(0, {{"pt_regs", reg}}, 8, "char *", "string");
  a.userAddress = true;
  return a;
}

std::vector<StableProbe> procProbes() {
  // task_newtask(task, clone_flags) runs in the parent; the child is task.
  const ArgSource child = contextWord(0, "struct task_struct *", "psinfo_t *");
  const ArgSource childThread = contextWord(0, "struct task_struct *", "lwpsinfo_t *");
  const ArgSource cloneFlags = contextWord(1, "u64");
  // sched_process_exit(task, group_dead): every thread's exit; the last
  // one's is the process's.
  const ArgSource groupDead = contextWord(1, "bool");
  const std::vector<int64_t> forks = {SYS_clone, SYS_fork, SYS_vfork, SYS_clone3};
  ArgSource errnoValue = syscallResult();
  errnoValue.negate = true;
  errnoValue.typeName = "int";
  // signal_generate(sig, info, task, group, result), in the sender;
  // signal_deliver(sig, info, ka), in the thread about to handle it.
  const ArgSource target = contextWord(2, "struct task_struct *", "psinfo_t *");
  const ArgSource targetThread = contextWord(2, "struct task_struct *", "lwpsinfo_t *");
  const ArgSource signal = contextWord(0, "int");
  ArgSource signalTaken = syscallResult();
  signalTaken.typeName = "int";
  // A new process's first thread fires start, then lwp-start, as DTrace
  // fires them where a new thread first runs.
  StableProbe lwpStart{
      "lwp-start",
      {"sys_exit"},
      {guard(Test::Equal, syscallResult(), {0}), guard(Test::OneOf, syscallNumber(), forks)},
      {}};
  lwpStart.eventOrder = 1;
  return {
      {"create", {"task_newtask"}, {guard(Test::NoBitSet, cloneFlags, {CLONE_THREAD})}, {child}},
      {"lwp-create",
       {"task_newtask"},
       {guard(Test::AnyBitSet, cloneFlags, {CLONE_THREAD})},
       {childThread, child}},
      // A new thread's first return to user space: from fork or clone, 0.
      {"start",
       {"sys_exit"},
       {guard(Test::Equal, syscallResult(), {0}), guard(Test::OneOf, syscallNumber(), forks),
        guard(Test::NotEqual, special(ArgSource::Kind::ThreadLeader, "int"), {0})},
       {}},
      lwpStart,
      // exec: at the new image, once its file is found and loaded (the
      // path from the kernel's copy), or at the return of an exec that
      // failed before that (the path from the caller's memory, which the
      // system call has just read).
      execAt("begin_new_exec", {"sched_prepare_exec"}, {},
             contextMember(1, {{"linux_binprm", "filename"}}, 8, "char *", "string")),
      execAt("execve", {"sys_exit"}, failedCall({SYS_execve}), userPath("di")),
      execAt("execveat", {"sys_exit"}, failedCall({SYS_execveat}), userPath("si")),
      {"exec-success", {"sched_process_exec"}, {}, {}},
      {"exec-failure", {"sys_exit"}, failedCall({SYS_execve, SYS_execveat}), {errnoValue}},
      {"exit",
       {"sched_process_exit"},
       {guard(Test::NotEqual, groupDead, {0})},
       {special(ArgSource::Kind::ExitReason, "int")}},
      {"lwp-exit", {"sched_process_exit"}, {}, {}},
      {"signal-send", {"signal_generate"}, {}, {targetThread, target, signal}},
      {"signal-handle",
       {"signal_deliver"},
       {},
       {signal, contextWord(1, "siginfo_t *"),
        contextMember(2, {{"k_sigaction", "sa"}, {"sigaction", "sa_handler"}}, 8, "void *")}},
      // A pending signal taken by sigwait(3C) (rt_sigtimedwait returns it).
      {"signal-clear",
       {"sys_exit"},
       {guard(Test::Positive, syscallResult()),
        guard(Test::OneOf, syscallNumber(), {SYS_rt_sigtimedwait})},
       {signalTaken}},
  };
}

}  // namespace

std::unique_ptr<Provider> makeProcProvider() { return makeStableProvider("proc", procProbes()); }

}  // namespace dtrace::providers
