// bufpolicy=ring: each CPU keeps its newest records, at most `bufsize`
// bytes of them, the oldest giving way to the newest; they are printed
// when tracing ends, in the order they were recorded across CPUs. The
// kernel's buffer is still drained as usual, so nothing is lost on the way:
// only what the policy overwrites.
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

  // One record (ir::RecordHeader first: its CPU says whose ring it joins).
  // A record larger than a whole ring is overwritten at once.
  void add(const void* record, size_t size);
  // Every record kept, in recording order; the rings are empty afterwards.
  // Stops at the first negative return of `handle` and returns it.
  int drain(const std::function<int(const void*, size_t)>& handle);

 private:
  struct Kept {
    uint64_t sequence;
    std::string bytes;
  };
  struct CpuRing {
    std::deque<Kept> records;
    uint64_t bytes = 0;
  };
  uint64_t capacity_;
  uint64_t nextSequence_ = 0;
  std::vector<CpuRing> cpus_;
};

}  // namespace dtrace::consume
