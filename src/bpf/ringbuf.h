// Consumer side of a BPF_MAP_TYPE_RINGBUF map (the principal buffer):
// records are handed to a callback in the order the kernel committed them.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

#include "util/result.h"

struct ring_buffer;  // libbpf's, kept out of sight

namespace dtrace::bpf {

class RingBuffer {
 public:
  // Called once per committed record; a negative return stops the current
  // poll/consume and is passed back as its error.
  using RecordHandler = std::function<int(const void* data, size_t size)>;

  static Result<RingBuffer> open(int mapFd, RecordHandler onRecord);

  RingBuffer(RingBuffer&&) noexcept;
  RingBuffer& operator=(RingBuffer&&) noexcept;
  ~RingBuffer();

  // Waits up to timeoutMs (-1: forever) for data, then drains; returns the
  // number of records handled. An interrupted wait returns 0.
  Result<int> poll(int timeoutMs);
  // Drains whatever is available without waiting.
  Result<int> consume();
  // Readable when records are available; for the consumer's own event loop.
  int epollFd() const;

 private:
  struct Deleter {
    void operator()(ring_buffer* rb) const;
  };
  RingBuffer(std::unique_ptr<ring_buffer, Deleter> rb, std::unique_ptr<RecordHandler> handler);

  // The handler lives on the heap so its address, given to libbpf as the
  // callback context, survives moves of the RingBuffer.
  std::unique_ptr<RecordHandler> handler_;
  std::unique_ptr<ring_buffer, Deleter> rb_;
};

}  // namespace dtrace::bpf
