// Records of all CPUs in the order they were recorded (-x temporal, and
// bufpolicy=ring's printing at exit). Records then carry their time
// (ir::kRecordTimestampSize bytes after the data). Each switch interval
// reads the CPUs' buffers in turn into per-CPU queues; only the records
// stamped before the interval began are released, in time order: the
// others wait until the buffers of every CPU have been read past their
// time. For bufpolicy=ring each CPU's queue keeps only its newest
// `bufsize` bytes of records, the oldest giving way, and is released when
// tracing ends, as DTrace sorts its ring buffers by time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

namespace dtrace::consume {

// The time a timestamped record was written (CLOCK_MONOTONIC ns).
uint64_t recordTime(const void* record, size_t size);

class TemporalOrder {
 public:
  using Handler = std::function<int(const void*, size_t)>;
  // `bytesPerCpu` bounds each CPU's queue, counting records without their
  // timestamps; a record larger than that is overwritten at once.
  explicit TemporalOrder(uint64_t bytesPerCpu = UINT64_MAX) : capacity_(bytesPerCpu) {}

  // One timestamped record (its header's CPU says whose queue it joins).
  void add(const void* record, size_t size);
  // The records stamped before `before`, oldest first; stops at the first
  // negative return of `handle` and returns it.
  int release(uint64_t before, const Handler& handle);
  int releaseAll(const Handler& handle) { return release(UINT64_MAX, handle); }

 private:
  struct Kept {
    uint64_t time;
    std::string bytes;
  };
  struct CpuQueue {
    std::deque<Kept> records;
    uint64_t bytes = 0;  // without the timestamps
  };
  uint64_t capacity_;
  std::vector<CpuQueue> cpus_;
};

}  // namespace dtrace::consume
