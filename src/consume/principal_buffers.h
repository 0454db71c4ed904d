// Reading the principal buffers (one BPF ring buffer per CPU) in DTrace's
// order. By default each switch interval hands over each CPU's records of
// the interval in turn, lowest CPU first, as dtrace(1M) prints its per-CPU
// buffers; with -x temporal the records (then timestamped) go in time order
// across CPUs; with bufpolicy=ring they are kept, each CPU's newest, and go
// in time order when tracing ends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "bpf/ringbuf.h"
#include "consume/temporal_order.h"
#include "util/result.h"

namespace dtrace::consume {

class PrincipalBuffers {
 public:
  using Handler = std::function<int(const void* record, size_t size)>;
  struct Order {
    bool temporal = false;              // -x temporal
    std::optional<uint64_t> ringBytes;  // bufpolicy=ring: bufsize
  };

  // `ringFds` by CPU; `print` takes each record when its turn comes.
  static Result<PrincipalBuffers> open(const std::vector<int>& ringFds, Order order, Handler print);

  // One switch interval: what each CPU's buffer holds, CPU after CPU,
  // `first` (BEGIN's CPU, in the first interval) before the others.
  void interval(std::optional<size_t> first = std::nullopt);
  // Tracing has ended: every record still in the buffers or held back.
  void finish();
  // Readable when a CPU's buffer asks to be drained.
  int epollFd() const { return rings_->epollFd(); }

 private:
  PrincipalBuffers() = default;

  std::unique_ptr<Handler> print_;
  // -x temporal or bufpolicy=ring: records wait here to go in time order,
  // each interval (temporal) or when tracing ends (ring).
  std::unique_ptr<TemporalOrder> ordered_;
  bool releaseEachInterval_ = false;
  std::optional<bpf::RingBuffer> rings_;
};

}  // namespace dtrace::consume
