// vtimestamp as illumos keeps it (t_dtrace_vtime, added to at every
// context switch while a program uses it): the kernel's own per-task sum,
// sum_exec_runtime, moves only at a scheduler tick or a switch. A small
// program at sched_switch adds the slice that ends to the outgoing
// thread's task-local sum and notes, per CPU, when the next slice began
// and the incoming thread's sum; vtimestamp is the current thread's sum
// (the incoming one's in sched:::on-cpu) plus the time since then.
#pragma once

#include <optional>

#include "bpf/attach.h"
#include "bpf/map.h"
#include "bpf/program.h"
#include "util/result.h"

namespace dtrace::driver {

class ThreadCpuClock {
 public:
  static Result<ThreadCpuClock> start();
  int sumsFd() const { return sums_.fd(); }  // task storage: u64 ns on CPU
  // Per-CPU array [0]: {u64 ktime the slice began, u64 the incoming thread's sum}.
  int sliceStartsFd() const { return sliceStarts_.fd(); }

 private:
  ThreadCpuClock(bpf::Map sums, bpf::Map sliceStarts, bpf::Program program, bpf::Link link)
      : sums_(std::move(sums)),
        sliceStarts_(std::move(sliceStarts)),
        program_(std::move(program)),
        link_(std::move(link)) {}
  bpf::Map sums_, sliceStarts_;
  bpf::Program program_;
  bpf::Link link_;
};

}  // namespace dtrace::driver
