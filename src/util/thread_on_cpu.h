// Keeps the calling thread on one CPU while the object lives, then lets it
// go back to the CPUs it had (-x cpu: BEGIN, END and tick-N run on that
// CPU in dtrace's own threads). If the thread may not move, nothing changes.
#pragma once

#include <sched.h>

#include <cstdint>

namespace dtrace {

class ThreadOnCpu {
 public:
  explicit ThreadOnCpu(uint32_t cpu) {
    cpu_set_t only;
    CPU_ZERO(&only);
    CPU_SET(cpu, &only);
    moved_ = sched_getaffinity(0, sizeof previous_, &previous_) == 0 &&
             sched_setaffinity(0, sizeof only, &only) == 0;
  }
  ~ThreadOnCpu() {
    if (moved_) (void)sched_setaffinity(0, sizeof previous_, &previous_);
  }
  ThreadOnCpu(const ThreadOnCpu&) = delete;
  ThreadOnCpu& operator=(const ThreadOnCpu&) = delete;

 private:
  cpu_set_t previous_;
  bool moved_ = false;
};

}  // namespace dtrace
