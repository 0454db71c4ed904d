#include "consume/temporal_order.h"

#include <cstring>

#include "ir/runtime.h"

namespace dtrace::consume {

uint64_t recordTime(const void* record, size_t size) {
  uint64_t time = 0;
  if (size >= sizeof(ir::RecordHeader) + ir::kRecordTimestampSize) {
    std::memcpy(&time, static_cast<const char*>(record) + size - ir::kRecordTimestampSize,
                sizeof time);
  }
  return time;
}

void TemporalOrder::add(const void* record, size_t size) {
  ir::RecordHeader header{};
  if (size < sizeof header + ir::kRecordTimestampSize) return;
  std::memcpy(&header, record, sizeof header);
  const uint64_t counted = size - ir::kRecordTimestampSize;
  if (counted > capacity_) return;
  if (header.cpu >= cpus_.size()) cpus_.resize(header.cpu + 1);
  CpuQueue& queue = cpus_[header.cpu];
  while (!queue.records.empty() && queue.bytes + counted > capacity_) {
    queue.bytes -= queue.records.front().bytes.size() - ir::kRecordTimestampSize;
    queue.records.pop_front();
  }
  queue.records.push_back(
      {recordTime(record, size), std::string(static_cast<const char*>(record), size)});
  queue.bytes += counted;
}

// A CPU's queue is in its buffer's order; the oldest head of all goes first
// (the lower CPU on a tie).
int TemporalOrder::release(uint64_t before, const Handler& handle) {
  for (;;) {
    CpuQueue* oldest = nullptr;
    for (CpuQueue& queue : cpus_) {
      if (queue.records.empty() || queue.records.front().time >= before) continue;
      if (!oldest || queue.records.front().time < oldest->records.front().time) oldest = &queue;
    }
    if (!oldest) return 0;
    const Kept kept = std::move(oldest->records.front());
    oldest->records.pop_front();
    oldest->bytes -= kept.bytes.size() - ir::kRecordTimestampSize;
    if (const int rc = handle(kept.bytes.data(), kept.bytes.size()); rc < 0) return rc;
  }
}

}  // namespace dtrace::consume
