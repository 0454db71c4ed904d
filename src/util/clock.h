#pragma once

#include <time.h>

#include <cstdint>

namespace dtrace::util {

// CLOCK_MONOTONIC in nanoseconds: the clock of bpf_ktime_get_ns.
inline uint64_t monotonicNs() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000 + static_cast<uint64_t>(now.tv_nsec);
}

}  // namespace dtrace::util
