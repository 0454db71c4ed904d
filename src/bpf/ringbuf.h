// Consumer side of BPF_MAP_TYPE_RINGBUF maps (the principal buffers, one
// per CPU): records are handed to a callback in the order each ring's
// producers committed them, ring after ring in the order the rings were
// given. Each ring is read through a window of its data (MappedRing), so
// that only what is being read is mapped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "bpf/mapped_ring.h"
#include "util/fd.h"
#include "util/result.h"

namespace dtrace::bpf {

class RingBuffer {
 public:
  // Called once per committed record; a negative return stops the current
  // poll/consume and is passed back as its error. `data` is valid only
  // during the call.
  using RecordHandler = std::function<int(const void* data, size_t size)>;

  // `window`: how much of each ring's data is mapped at a time (see
  // MappedRing); the default suits the principal buffers.
  static Result<RingBuffer> open(int mapFd, RecordHandler onRecord, RingWindow window = {});
  // Several rings (one per CPU), numbered in the order given.
  static Result<RingBuffer> open(const std::vector<int>& mapFds, RecordHandler onRecord,
                                 RingWindow window = {});

  size_t ringCount() const { return rings_.size(); }
  // Waits up to timeoutMs (-1: forever) for data, then drains the rings
  // that have some; returns the number of records handled. An interrupted
  // wait returns 0.
  Result<int> poll(int timeoutMs);
  // Drains whatever every ring holds, ring after ring, without waiting.
  Result<int> consume();
  // One switch interval of ring `index`: the records reserved before this
  // call (those a producer reserves meanwhile wait for the next interval,
  // so that a busy CPU cannot keep the consumer from the others).
  Result<int> consumeInterval(size_t index);
  // Readable when records are available; for the consumer's own event loop.
  int epollFd() const { return epoll_.get(); }

 private:
  RingBuffer(RecordHandler handler, std::vector<MappedRing> rings, Fd epoll)
      : handler_(std::move(handler)), rings_(std::move(rings)), epoll_(std::move(epoll)) {}
  Result<int> drain(MappedRing& ring, uint64_t limit);

  RecordHandler handler_;
  std::vector<MappedRing> rings_;
  Fd epoll_;  // each ring's map, tagged with its index
};

}  // namespace dtrace::bpf
