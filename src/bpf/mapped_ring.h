// One BPF_MAP_TYPE_RINGBUF mapped into the consumer a window at a time.
// The kernel inserts every page of a ring mapping when it is mapped, so a
// reader that maps the whole data area (twice, as libbpf's does) makes all
// of it resident at once: 8 MiB per 4 MiB ring. This maps the consumer page
// (read-write), the producer page (read-only) and a window of the data area
// that slides along with the consumer position: only the window is
// resident. The kernel maps the data pages twice in a row, so a window that
// starts at any page holds the records after it contiguously, even those
// that wrap around the end of the ring.
//
// The pages of a new window cost more to read the first time than pages
// mapped long before (on the project's VM, which shadows page tables,
// about 3 us a page), so a reader that goes through windows quickly would
// pay that for every page of every lap. A window the reader leaves within
// a second of the last one is followed by one twice as large, up to the
// whole data area (mapped twice, like libbpf's reader), which then stays:
// a ring read that fast takes the memory it uses.
#pragma once

#include <cstddef>
#include <cstdint>

#include "util/result.h"

namespace dtrace::bpf {

// How much of a ring's data is mapped at a time.
struct RingWindow {
  size_t bytes = 256 * 1024;  // rounded to pages, at most the ring's size
  bool grows = true;          // else it only slides (and widens for a large record)
};

class MappedRing {
 public:
  // The window spans window.bytes at first, more when a record needs it or
  // as it grows.
  static Result<MappedRing> open(int mapFd, RingWindow window = {});

  MappedRing(MappedRing&& other) noexcept;
  MappedRing& operator=(MappedRing&& other) noexcept;
  MappedRing(const MappedRing&) = delete;
  MappedRing& operator=(const MappedRing&) = delete;
  ~MappedRing();

  // The positions count bytes ever reserved (producer) and read (consumer);
  // the kernel publishes the producer's with a release store.
  uint64_t consumerPos() const { return __atomic_load_n(consumerPos_, __ATOMIC_ACQUIRE); }
  uint64_t producerPos() const { return __atomic_load_n(producerPos_, __ATOMIC_ACQUIRE); }
  // Gives the bytes before `pos` back to the producers.
  void publishConsumerPos(uint64_t pos) { __atomic_store_n(consumerPos_, pos, __ATOMIC_RELEASE); }

  // The ring's bytes [pos, pos + length), `length` at most the ring's
  // size: valid until the next call. Null, with errno set, if the window
  // had to move and could not be mapped.
  const uint8_t* bytes(uint64_t pos, size_t length) {
    if (pos >= windowPos_ && pos + length <= windowPos_ + windowLength_) {
      return window_ + (pos - windowPos_);
    }
    return moveWindow(pos, length);
  }

 private:
  MappedRing(int fd, size_t dataSize, RingWindow window, size_t pageSize)
      : fd_(fd), dataSize_(dataSize), policy_(window), pageSize_(pageSize) {}
  const uint8_t* moveWindow(uint64_t pos, size_t length);
  bool mapWindow(uint64_t start, size_t span);
  void unmapAll();

  int fd_ = -1;  // the map's, not owned
  size_t dataSize_ = 0;
  RingWindow policy_;  // bytes: its length now, unless a record needs more
  size_t pageSize_ = 0;
  uint64_t* consumerPos_ = nullptr;
  const uint64_t* producerPos_ = nullptr;
  const uint8_t* window_ = nullptr;
  uint64_t windowPos_ = 0;  // the ring position at window_[0], a page boundary
  size_t windowLength_ = 0;
  bool whole_ = false;       // window_ maps the data area twice, for good
  uint64_t lastMoveNs_ = 0;  // when the window last moved
};

}  // namespace dtrace::bpf
