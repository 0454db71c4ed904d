#include "bpf/ringbuf.h"

#include <bpf/libbpf.h>

#include <cerrno>
#include <climits>
#include <utility>

#include "bpf/errors.h"

namespace dtrace::bpf {
namespace {

// What dispatch() returns for a record beyond the interval's snapshot: it
// stops libbpf's loop, the record having been kept for the next interval.
constexpr int kPastSnapshot = INT_MIN + 1;

Result<int> countOrError(int rc, const char* what) {
  if (rc >= 0) return rc;
  if (rc == -EINTR) return 0;
  return makeError(std::string(what) + ": " + errnoText(-rc));
}

}  // namespace

void RingBuffer::Deleter::operator()(ring_buffer* rb) const { ring_buffer__free(rb); }

RingBuffer::RingBuffer(std::unique_ptr<ring_buffer, Deleter> rb,
                       std::unique_ptr<RecordHandler> handler,
                       std::vector<std::unique_ptr<Ring>> rings)
    : handler_(std::move(handler)), rings_(std::move(rings)), rb_(std::move(rb)) {}

RingBuffer::RingBuffer(RingBuffer&&) noexcept = default;
RingBuffer& RingBuffer::operator=(RingBuffer&&) noexcept = default;
RingBuffer::~RingBuffer() = default;

// libbpf publishes the consumer position after each record's callback, so
// during the callback it is where this record starts.
int RingBuffer::dispatch(void* context, void* data, size_t size) {
  Ring& ring = *static_cast<Ring*>(context);
  if (ring.bounded && ring__consumer_pos(ring.ring) >= ring.limit) {
    ring.carried.assign(static_cast<const char*>(data), size);
    ring.hasCarried = true;
    return kPastSnapshot;
  }
  return (*ring.handler)(data, size);
}

Result<RingBuffer> RingBuffer::open(int mapFd, RecordHandler onRecord) {
  return open(std::vector<int>{mapFd}, std::move(onRecord));
}

Result<RingBuffer> RingBuffer::open(const std::vector<int>& mapFds, RecordHandler onRecord) {
  if (mapFds.empty()) return makeError("failed to open ring buffer: no ring");
  auto handler = std::make_unique<RecordHandler>(std::move(onRecord));
  std::vector<std::unique_ptr<Ring>> rings;
  std::unique_ptr<ring_buffer, Deleter> rb;
  for (size_t i = 0; i < mapFds.size(); i++) {
    auto ring = std::make_unique<Ring>();
    ring->handler = handler.get();
    if (i == 0) {
      rb.reset(ring_buffer__new(mapFds[0], dispatch, ring.get(), nullptr));
      if (!rb) return makeError("failed to open ring buffer: " + errnoText(errno));
    } else if (const int rc = ring_buffer__add(rb.get(), mapFds[i], dispatch, ring.get()); rc < 0) {
      return makeError("failed to open ring buffer: " + errnoText(-rc));
    }
    ring->ring = ring_buffer__ring(rb.get(), static_cast<unsigned>(i));
    rings.push_back(std::move(ring));
  }
  return RingBuffer(std::move(rb), std::move(handler), std::move(rings));
}

Result<int> RingBuffer::poll(int timeoutMs) {
  return countOrError(ring_buffer__poll(rb_.get(), timeoutMs), "failed to poll ring buffer");
}

// The record a previous interval left goes first: it came before the rest.
Result<int> RingBuffer::consumeRing(Ring& ring, bool bounded) {
  int handled = 0;
  if (ring.hasCarried) {
    ring.hasCarried = false;
    if (const int rc = (*ring.handler)(ring.carried.data(), ring.carried.size()); rc < 0) {
      return countOrError(rc, "failed to read ring buffer");
    }
    handled++;
  }
  ring.bounded = bounded;
  ring.limit = ring__producer_pos(ring.ring);
  if (bounded && ring__consumer_pos(ring.ring) >= ring.limit) return handled;
  const int rc = ring__consume(ring.ring);
  ring.bounded = false;
  if (rc == kPastSnapshot) return handled;  // the count of this call is lost; it is only a hint
  auto counted = countOrError(rc, "failed to read ring buffer");
  if (!counted) return counted;
  return handled + *counted;
}

Result<int> RingBuffer::consume() {
  int handled = 0;
  for (auto& ring : rings_) {
    auto n = consumeRing(*ring, false);
    if (!n) return n;
    handled += *n;
  }
  return handled;
}

Result<int> RingBuffer::consumeInterval(size_t index) {
  return consumeRing(*rings_.at(index), true);
}

int RingBuffer::epollFd() const { return ring_buffer__epoll_fd(rb_.get()); }

}  // namespace dtrace::bpf
