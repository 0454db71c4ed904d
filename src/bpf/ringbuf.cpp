#include "bpf/ringbuf.h"

#include <bpf/libbpf.h>

#include <cerrno>
#include <utility>

#include "bpf/errors.h"

namespace dtrace::bpf {
namespace {

int dispatchRecord(void* context, void* data, size_t size) {
  return (*static_cast<RingBuffer::RecordHandler*>(context))(data, size);
}

Result<int> countOrError(int rc, const char* what) {
  if (rc >= 0) return rc;
  if (rc == -EINTR) return 0;
  return makeError(std::string(what) + ": " + errnoText(-rc));
}

}  // namespace

void RingBuffer::Deleter::operator()(ring_buffer* rb) const { ring_buffer__free(rb); }

RingBuffer::RingBuffer(std::unique_ptr<ring_buffer, Deleter> rb,
                       std::unique_ptr<RecordHandler> handler)
    : handler_(std::move(handler)), rb_(std::move(rb)) {}

RingBuffer::RingBuffer(RingBuffer&&) noexcept = default;
RingBuffer& RingBuffer::operator=(RingBuffer&&) noexcept = default;
RingBuffer::~RingBuffer() = default;

Result<RingBuffer> RingBuffer::open(int mapFd, RecordHandler onRecord) {
  auto handler = std::make_unique<RecordHandler>(std::move(onRecord));
  ring_buffer* rb = ring_buffer__new(mapFd, dispatchRecord, handler.get(), nullptr);
  if (rb == nullptr) {
    const int err = errno;
    return makeError("failed to open ring buffer: " + errnoText(err));
  }
  return RingBuffer(std::unique_ptr<ring_buffer, Deleter>(rb), std::move(handler));
}

Result<int> RingBuffer::poll(int timeoutMs) {
  return countOrError(ring_buffer__poll(rb_.get(), timeoutMs), "failed to poll ring buffer");
}

Result<int> RingBuffer::consume() {
  return countOrError(ring_buffer__consume(rb_.get()), "failed to read ring buffer");
}

int RingBuffer::epollFd() const { return ring_buffer__epoll_fd(rb_.get()); }

}  // namespace dtrace::bpf
