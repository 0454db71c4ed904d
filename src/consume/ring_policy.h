// bufpolicy=ring: each CPU keeps its newest records, at most `bufsize`
// bytes of them, the oldest giving way to the newest; they are printed
// when tracing ends, in the order they were recorded across CPUs (by the
// time each record carries, as DTrace sorts ring buffers). The kernel's
// per-CPU buffers are still drained as usual, so nothing is lost on the
// way: only what the policy overwrites.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

namespace dtrace::consume {

class RingPolicyBuffer {
 public:
  explicit RingPolicyBuffer(uint64_t bytesPerCpu) : capacity_(bytesPerCpu) {}

  // One timestamped record (ir::RecordHeader first: its CPU says whose ring
  // it joins). Its size without the timestamp counts against the ring; a
  // record larger than a whole ring is overwritten at once.
  void add(const void* record, size_t size);
  // Every record kept, oldest first; the rings are empty afterwards.
  // Stops at the first negative return of `handle` and returns it.
  int drain(const std::function<int(const void*, size_t)>& handle);

 private:
  struct Kept {
    uint64_t time;
    std::string bytes;
  };
  struct CpuRing {
    std::deque<Kept> records;
    uint64_t bytes = 0;
  };
  uint64_t capacity_;
  std::vector<CpuRing> cpus_;
};

}  // namespace dtrace::consume
