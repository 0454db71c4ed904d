#include "bpf/mapped_ring.h"

#include <bpf/bpf.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <utility>

#include "bpf/errors.h"
#include "util/clock.h"

namespace dtrace::bpf {
namespace {

// The ring's pages as mmap(2) offsets name them (kernel/bpf/ringbuf.c):
// the consumer position's page, the producer position's page, then the
// data pages twice in a row.
constexpr size_t kConsumerPage = 0;
constexpr size_t kProducerPage = 1;
constexpr size_t kFirstDataPage = 2;

// A window left sooner than this after the last move is followed by one
// twice as large.
constexpr uint64_t kGrowWithinNs = 1000000000;

size_t roundUp(size_t bytes, size_t unit) { return (bytes + unit - 1) / unit * unit; }

Error mmapError(const char* what, int err) {
  return makeError(std::string("failed to map ring buffer ") + what + ": " + errnoText(err));
}

}  // namespace

Result<MappedRing> MappedRing::open(int mapFd, RingWindow window) {
  bpf_map_info info{};
  uint32_t infoSize = sizeof info;
  if (bpf_map_get_info_by_fd(mapFd, &info, &infoSize) != 0) {
    const int err = errno;
    return makeError("failed to open ring buffer: " + errnoText(err));
  }
  if (info.type != BPF_MAP_TYPE_RINGBUF) {
    return makeError("failed to open ring buffer: not a ring buffer map");
  }
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t dataSize = info.max_entries;
  window.bytes = std::clamp(roundUp(window.bytes, page), page, dataSize);
  MappedRing ring(mapFd, dataSize, window, page);

  void* consumer =
      mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_SHARED, mapFd, kConsumerPage * page);
  if (consumer == MAP_FAILED) return mmapError("consumer page", errno);
  ring.consumerPos_ = static_cast<uint64_t*>(consumer);
  void* producer = mmap(nullptr, page, PROT_READ, MAP_SHARED, mapFd, kProducerPage * page);
  if (producer == MAP_FAILED) return mmapError("producer page", errno);
  ring.producerPos_ = static_cast<const uint64_t*>(producer);
  if (ring.bytes(ring.consumerPos(), 1) == nullptr) return mmapError("data", errno);
  return ring;
}

MappedRing::MappedRing(MappedRing&& other) noexcept
    : fd_(other.fd_),
      dataSize_(other.dataSize_),
      policy_(other.policy_),
      pageSize_(other.pageSize_),
      consumerPos_(std::exchange(other.consumerPos_, nullptr)),
      producerPos_(std::exchange(other.producerPos_, nullptr)),
      window_(std::exchange(other.window_, nullptr)),
      windowPos_(std::exchange(other.windowPos_, 0)),
      windowLength_(std::exchange(other.windowLength_, 0)),
      whole_(other.whole_),
      lastMoveNs_(other.lastMoveNs_) {}

MappedRing& MappedRing::operator=(MappedRing&& other) noexcept {
  if (this != &other) {
    unmapAll();
    fd_ = other.fd_;
    dataSize_ = other.dataSize_;
    policy_ = other.policy_;
    pageSize_ = other.pageSize_;
    consumerPos_ = std::exchange(other.consumerPos_, nullptr);
    producerPos_ = std::exchange(other.producerPos_, nullptr);
    window_ = std::exchange(other.window_, nullptr);
    windowPos_ = std::exchange(other.windowPos_, 0);
    windowLength_ = std::exchange(other.windowLength_, 0);
    whole_ = other.whole_;
    lastMoveNs_ = other.lastMoveNs_;
  }
  return *this;
}

MappedRing::~MappedRing() { unmapAll(); }

void MappedRing::unmapAll() {
  if (consumerPos_ != nullptr) munmap(consumerPos_, pageSize_);
  if (producerPos_ != nullptr) munmap(const_cast<uint64_t*>(producerPos_), pageSize_);
  if (window_ != nullptr) munmap(const_cast<uint8_t*>(window_), windowLength_);
  consumerPos_ = nullptr;
  producerPos_ = nullptr;
  window_ = nullptr;
  windowLength_ = 0;
}

// The new window starts at the page holding `pos`. As data pages sit
// twice in a row, a window of at most the ring's size plus a page fits
// from any page of the first copy on, and a record of at most the ring's
// size ends within it. Once the window is the whole (doubled) data area,
// a position's lap only picks which copy its record starts in.
const uint8_t* MappedRing::moveWindow(uint64_t pos, size_t length) {
  if (!whole_ && policy_.grows) {
    const uint64_t now = util::monotonicNs();
    if (window_ != nullptr && now - lastMoveNs_ < kGrowWithinNs) {
      policy_.bytes = std::min(policy_.bytes * 2, dataSize_);
    }
    lastMoveNs_ = now;
    if (policy_.bytes == dataSize_) {
      if (!mapWindow(0, 2 * dataSize_)) return nullptr;
      whole_ = true;
    }
  }
  if (whole_) {
    windowPos_ = pos / dataSize_ * dataSize_;
    windowLength_ = 2 * dataSize_;
    return window_ + (pos - windowPos_);
  }
  const uint64_t start = pos / pageSize_ * pageSize_;
  if (!mapWindow(start, std::max(policy_.bytes, roundUp(pos - start + length, pageSize_)))) {
    return nullptr;
  }
  windowPos_ = start;
  return window_ + (pos - start);
}

// Maps `span` bytes of the data area from ring position `start` (a page
// boundary) in place of the window; false, with errno set, if it cannot.
bool MappedRing::mapWindow(uint64_t start, size_t span) {
  const off_t offset = static_cast<off_t>(kFirstDataPage * pageSize_ + (start & (dataSize_ - 1)));
  // A window of the same length is replaced in place (one system call).
  void* hint = nullptr;
  int flags = MAP_SHARED;
  if (window_ != nullptr && span == windowLength_) {
    hint = const_cast<uint8_t*>(window_);
    flags |= MAP_FIXED;
  } else if (window_ != nullptr) {
    munmap(const_cast<uint8_t*>(window_), windowLength_);
  }
  void* addr = mmap(hint, span, PROT_READ, flags, fd_, offset);
  if (addr == MAP_FAILED) {
    const int err = errno;
    if (hint != nullptr) munmap(hint, windowLength_);
    window_ = nullptr;
    windowPos_ = 0;
    windowLength_ = 0;
    errno = err;
    return false;
  }
  window_ = static_cast<const uint8_t*>(addr);
  windowLength_ = span;
  return true;
}

}  // namespace dtrace::bpf
