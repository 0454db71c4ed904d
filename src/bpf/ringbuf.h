// Consumer side of BPF_MAP_TYPE_RINGBUF maps (the principal buffers, one
// per CPU): records are handed to a callback in the order each ring's
// producers committed them, ring after ring in the order the rings were
// given.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "util/result.h"

struct ring_buffer;  // libbpf's, kept out of sight
struct ring;

namespace dtrace::bpf {

class RingBuffer {
 public:
  // Called once per committed record; a negative return stops the current
  // poll/consume and is passed back as its error.
  using RecordHandler = std::function<int(const void* data, size_t size)>;

  static Result<RingBuffer> open(int mapFd, RecordHandler onRecord);
  // Several rings (one per CPU), numbered in the order given.
  static Result<RingBuffer> open(const std::vector<int>& mapFds, RecordHandler onRecord);

  RingBuffer(RingBuffer&&) noexcept;
  RingBuffer& operator=(RingBuffer&&) noexcept;
  ~RingBuffer();

  size_t ringCount() const { return rings_.size(); }
  // Waits up to timeoutMs (-1: forever) for data, then drains; returns the
  // number of records handled. An interrupted wait returns 0.
  Result<int> poll(int timeoutMs);
  // Drains whatever every ring holds, ring after ring, without waiting.
  Result<int> consume();
  // One switch interval of ring `index`: the records reserved before this
  // call (those a producer reserves meanwhile wait for the next interval,
  // so that a busy CPU cannot keep the consumer from the others).
  Result<int> consumeInterval(size_t index);
  // Readable when records are available; for the consumer's own event loop.
  int epollFd() const;

 private:
  // What the libbpf callback of one ring needs; on the heap, so that its
  // address (libbpf's callback context) survives moves of the RingBuffer.
  struct Ring {
    const RecordHandler* handler = nullptr;
    ::ring* ring = nullptr;
    bool bounded = false;     // within consumeInterval
    unsigned long limit = 0;  // its snapshot of the producer position
    std::string carried;      // the record that was past the last snapshot
    bool hasCarried = false;
  };
  static int dispatch(void* context, void* data, size_t size);
  Result<int> consumeRing(Ring& ring, bool bounded);

  struct Deleter {
    void operator()(ring_buffer* rb) const;
  };
  RingBuffer(std::unique_ptr<ring_buffer, Deleter> rb, std::unique_ptr<RecordHandler> handler,
             std::vector<std::unique_ptr<Ring>> rings);

  std::unique_ptr<RecordHandler> handler_;
  std::vector<std::unique_ptr<Ring>> rings_;
  std::unique_ptr<ring_buffer, Deleter> rb_;
};

}  // namespace dtrace::bpf
