// The principal buffers: one BPF ring buffer per possible CPU, all of one
// size, held in an array of maps indexed by CPU number. A program finds its
// CPU's ring with one (inlined) lookup, so CPUs never share a buffer and a
// full buffer drops only its own CPU's records, as DTrace's per-CPU
// principal buffers do.
#pragma once

#include <cstdint>
#include <vector>

#include "bpf/map.h"
#include "util/result.h"

namespace dtrace::bpf {

class CpuRings {
 public:
  // `cpus` rings of `ringSize` bytes (a power of two, a multiple of the
  // page size).
  static Result<CpuRings> create(int cpus, uint32_t ringSize);

  // The array of maps the generated programs look their ring up in. It
  // is empty until fillArray(): filling an array of maps waits for an RCU
  // grace period (10-25 ms on a small VM), which a script whose programs
  // all run in dtrace's own thread (BEGIN, END: they name their CPU's ring
  // directly) need not pay.
  int arrayFd() const { return array_.fd(); }
  Result<void> fillArray();
  int ringFd(uint32_t cpu) const { return rings_.at(cpu).fd(); }
  // The rings' descriptors, by CPU, for the consumer.
  std::vector<int> ringFds() const;
  uint32_t ringSize() const { return ringSize_; }

 private:
  CpuRings(std::vector<Map> rings, Map array, uint32_t ringSize)
      : rings_(std::move(rings)), array_(std::move(array)), ringSize_(ringSize) {}

  std::vector<Map> rings_;
  Map array_;
  uint32_t ringSize_;
  bool filled_ = false;
};

}  // namespace dtrace::bpf
