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
  if (size < sizeof header) return;
  std::memcpy(&header, record, sizeof header);
  if (header.cpu >= cpus_.size()) cpus_.resize(header.cpu + 1);
  cpus_[header.cpu].push_back(
      {recordTime(record, size), std::string(static_cast<const char*>(record), size)});
}

// A CPU's queue is in its buffer's order; the oldest head of all goes first
// (the lower CPU on a tie).
int TemporalOrder::release(uint64_t before, const Handler& handle) {
  for (;;) {
    std::deque<Kept>* oldest = nullptr;
    for (std::deque<Kept>& queue : cpus_) {
      if (queue.empty() || queue.front().time >= before) continue;
      if (!oldest || queue.front().time < oldest->front().time) oldest = &queue;
    }
    if (!oldest) return 0;
    const Kept kept = std::move(oldest->front());
    oldest->pop_front();
    if (const int rc = handle(kept.bytes.data(), kept.bytes.size()); rc < 0) return rc;
  }
}

}  // namespace dtrace::consume
