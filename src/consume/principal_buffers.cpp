#include "consume/principal_buffers.h"

#include <utility>

#include "util/clock.h"

namespace dtrace::consume {
namespace {

// A record is stamped just before the kernel reserves its room: one stamped
// this long before the buffers are read is surely in them by then.
constexpr uint64_t kCommitSlackNs = 1000000;

}  // namespace

Result<PrincipalBuffers> PrincipalBuffers::open(const std::vector<int>& ringFds, Order order,
                                                Handler print) {
  PrincipalBuffers buffers;
  buffers.print_ = std::make_unique<Handler>(std::move(print));
  if (order.ringBytes || order.temporal) {
    buffers.ordered_ = std::make_unique<TemporalOrder>(order.ringBytes.value_or(UINT64_MAX));
    buffers.releaseEachInterval_ = !order.ringBytes;
  }
  // The callback lives as long as the ring buffer: it reaches the heap
  // objects above, which moves of PrincipalBuffers leave in place.
  auto rings = bpf::RingBuffer::open(
      ringFds, [print = buffers.print_.get(), ordered = buffers.ordered_.get()](const void* record,
                                                                                size_t size) {
        if (!ordered) return (*print)(record, size);
        ordered->add(record, size);
        return 0;
      });
  if (!rings) return rings.error();
  buffers.rings_.emplace(std::move(*rings));
  return buffers;
}

void PrincipalBuffers::interval(std::optional<size_t> first) {
  const uint64_t began = util::monotonicNs();
  if (first && *first < rings_->ringCount()) (void)rings_->consumeInterval(*first);
  for (size_t cpu = 0; cpu < rings_->ringCount(); cpu++) {
    if (cpu != first) (void)rings_->consumeInterval(cpu);
  }
  if (ordered_ && releaseEachInterval_) (void)ordered_->release(began - kCommitSlackNs, *print_);
}

void PrincipalBuffers::finish() {
  (void)rings_->consume();
  if (ordered_) (void)ordered_->releaseAll(*print_);
}

}  // namespace dtrace::consume
