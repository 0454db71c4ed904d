#include "bpf/ringbuf.h"

#include <linux/bpf.h>
#include <sys/epoll.h>

#include <algorithm>
#include <cerrno>
#include <utility>

#include "bpf/errors.h"

namespace dtrace::bpf {
namespace {

constexpr uint64_t kFollowProducer = UINT64_MAX;

// A record's header (kernel/bpf/ringbuf.c): its length, with the BUSY bit
// set while the producer writes it and the DISCARD bit if it was thrown
// away, then 4 bytes of the kernel's own; the next record starts 8-aligned.
constexpr uint32_t kFlagBits = BPF_RINGBUF_BUSY_BIT | BPF_RINGBUF_DISCARD_BIT;

uint64_t recordSpan(uint32_t header) {
  return (uint64_t{header & ~kFlagBits} + BPF_RINGBUF_HDR_SZ + 7) / 8 * 8;
}

Error readError(int err) { return makeError("failed to read ring buffer: " + errnoText(err)); }

}  // namespace

Result<RingBuffer> RingBuffer::open(int mapFd, RecordHandler onRecord, RingWindow window) {
  return open(std::vector<int>{mapFd}, std::move(onRecord), window);
}

Result<RingBuffer> RingBuffer::open(const std::vector<int>& mapFds, RecordHandler onRecord,
                                    RingWindow window) {
  if (mapFds.empty()) return makeError("failed to open ring buffer: no ring");
  Fd epoll(epoll_create1(EPOLL_CLOEXEC));
  if (!epoll) return makeError("failed to open ring buffer: " + errnoText(errno));
  std::vector<MappedRing> rings;
  rings.reserve(mapFds.size());
  for (size_t i = 0; i < mapFds.size(); i++) {
    auto ring = MappedRing::open(mapFds[i], window);
    if (!ring) return ring.error();
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.u64 = i;
    if (epoll_ctl(epoll.get(), EPOLL_CTL_ADD, mapFds[i], &event) != 0) {
      return makeError("failed to open ring buffer: " + errnoText(errno));
    }
    rings.push_back(std::move(*ring));
  }
  return RingBuffer(std::move(onRecord), std::move(rings), std::move(epoll));
}

// Hands over the committed records from the consumer position up to
// `limit` (or on, while producers add more), publishing the consumer
// position past each. A record still being written stops the drain: those
// after it wait for the next. A record the handler refuses is consumed.
Result<int> RingBuffer::drain(MappedRing& ring, uint64_t limit) {
  int handled = 0;
  uint64_t pos = ring.consumerPos();
  for (;;) {
    const uint64_t end = std::min(limit, ring.producerPos());
    if (pos >= end) return handled;
    while (pos < end) {
      const uint8_t* at = ring.bytes(pos, BPF_RINGBUF_HDR_SZ);
      if (at == nullptr) return readError(errno);
      const uint32_t header =
          __atomic_load_n(reinterpret_cast<const uint32_t*>(at), __ATOMIC_ACQUIRE);
      if (header & BPF_RINGBUF_BUSY_BIT) return handled;
      const uint64_t span = recordSpan(header);
      if ((header & BPF_RINGBUF_DISCARD_BIT) == 0) {
        at = ring.bytes(pos, span);
        if (at == nullptr) return readError(errno);
        const int rc = handler_(at + BPF_RINGBUF_HDR_SZ, header & ~kFlagBits);
        if (rc < 0) {
          ring.publishConsumerPos(pos + span);
          if (rc == -EINTR) return handled;
          return readError(-rc);
        }
        handled++;
      }
      pos += span;
      ring.publishConsumerPos(pos);
    }
  }
}

Result<int> RingBuffer::poll(int timeoutMs) {
  std::vector<epoll_event> events(rings_.size());
  const int ready =
      epoll_wait(epoll_.get(), events.data(), static_cast<int>(events.size()), timeoutMs);
  if (ready < 0) {
    if (errno == EINTR) return 0;
    return makeError("failed to poll ring buffer: " + errnoText(errno));
  }
  int handled = 0;
  for (int i = 0; i < ready; i++) {
    auto n = drain(rings_.at(events[static_cast<size_t>(i)].data.u64), kFollowProducer);
    if (!n) return n;
    handled += *n;
  }
  return handled;
}

Result<int> RingBuffer::consume() {
  int handled = 0;
  for (MappedRing& ring : rings_) {
    auto n = drain(ring, kFollowProducer);
    if (!n) return n;
    handled += *n;
  }
  return handled;
}

// The record that starts at the snapshot or after it stays in the ring:
// the next interval reads it first.
Result<int> RingBuffer::consumeInterval(size_t index) {
  MappedRing& ring = rings_.at(index);
  return drain(ring, ring.producerPos());
}

}  // namespace dtrace::bpf
