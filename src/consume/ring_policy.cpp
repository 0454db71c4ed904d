#include "consume/ring_policy.h"

#include <cstring>

#include "consume/temporal_order.h"
#include "ir/runtime.h"

namespace dtrace::consume {

void RingPolicyBuffer::add(const void* record, size_t size) {
  ir::RecordHeader header{};
  if (size < sizeof header + ir::kRecordTimestampSize) return;
  std::memcpy(&header, record, sizeof header);
  const uint64_t counted = size - ir::kRecordTimestampSize;
  if (counted > capacity_) return;
  if (header.cpu >= cpus_.size()) cpus_.resize(header.cpu + 1);
  CpuRing& ring = cpus_[header.cpu];
  while (!ring.records.empty() && ring.bytes + counted > capacity_) {
    ring.bytes -= ring.records.front().bytes.size() - ir::kRecordTimestampSize;
    ring.records.pop_front();
  }
  ring.records.push_back(
      {recordTime(record, size), std::string(static_cast<const char*>(record), size)});
  ring.bytes += counted;
}

int RingPolicyBuffer::drain(const std::function<int(const void*, size_t)>& handle) {
  for (;;) {
    CpuRing* oldest = nullptr;
    for (CpuRing& ring : cpus_) {
      if (ring.records.empty()) continue;
      if (!oldest || ring.records.front().time < oldest->records.front().time) {
        oldest = &ring;
      }
    }
    if (!oldest) return 0;
    const Kept kept = std::move(oldest->records.front());
    oldest->records.pop_front();
    oldest->bytes -= kept.bytes.size() - ir::kRecordTimestampSize;
    if (const int rc = handle(kept.bytes.data(), kept.bytes.size()); rc < 0) return rc;
  }
}

}  // namespace dtrace::consume
