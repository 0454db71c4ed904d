#include "consume/aggregation_reader.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>
#include <string_view>
#include <unordered_map>

namespace dtrace::consume {

namespace {

Error mapError(const ir::Aggregation& agg, const char* what, int err) {
  return makeError("failed to read aggregation @" + agg.name + ": " + what + ": " +
                   std::strerror(err));
}

// Groups the map's (tuple, CPU) entries by tuple: each CPU updates only its
// own entries, and the consumer merges them, as DTrace merges per-CPU
// aggregation buffers.
class Grouper {
 public:
  Grouper(AggregationData& data, uint32_t keySize, int ncpus)
      : data_(data), keySize_(keySize), ncpus_(ncpus) {}

  void add(const uint8_t* mapKey, const ir::AggValue& value) {
    uint64_t cpu = 0;
    std::memcpy(&cpu, mapKey + keySize_, sizeof cpu);
    std::string_view tuple(reinterpret_cast<const char*>(mapKey), keySize_);
    auto [it, added] = index_.try_emplace(std::string(tuple), data_.entries.size());
    if (added) {
      AggregationEntry entry;
      entry.key.assign(mapKey, mapKey + keySize_);
      entry.perCpu.resize(static_cast<size_t>(ncpus_));
      data_.entries.push_back(std::move(entry));
    }
    if (cpu < static_cast<uint64_t>(ncpus_)) data_.entries[it->second].perCpu[cpu] = value;
  }

 private:
  AggregationData& data_;
  uint32_t keySize_;
  int ncpus_;
  std::unordered_map<std::string, size_t> index_;
};

// One key at a time: for kernels without batch lookups.
Result<void> readByIteration(const ir::Aggregation& agg, Grouper& grouper, int fd,
                             uint32_t mapKeySize) {
  std::vector<uint8_t> prev(mapKeySize), next(mapKeySize);
  ir::AggValue value;
  bool first = true;
  while (bpf_map_get_next_key(fd, first ? nullptr : prev.data(), next.data()) == 0) {
    first = false;
    // A key deleted between the two calls is simply skipped.
    if (bpf_map_lookup_elem(fd, next.data(), &value) == 0) {
      grouper.add(next.data(), value);
    } else if (errno != ENOENT) {
      return mapError(agg, "lookup", errno);
    }
    prev.swap(next);
  }
  if (errno != ENOENT) return mapError(agg, "iteration", errno);
  return {};
}

}  // namespace

Result<AggregationData> readAggregation(const ir::Aggregation& agg, int mapFd) {
  AggregationData data;
  data.aggregation = &agg;
  const int ncpus = libbpf_num_possible_cpus();
  if (ncpus <= 0) return makeError("failed to count the possible CPUs");
  const uint32_t mapKeySize = agg.keySize + ir::kAggregationCpuSlot;
  Grouper grouper(data, agg.keySize, ncpus);
  uint32_t chunk = 4096;
  std::vector<uint8_t> keys;
  std::vector<ir::AggValue> values;
  // Hash maps use a bucket cursor; give it room for any key.
  std::vector<uint8_t> cursorIn(mapKeySize), cursorOut(mapKeySize);
  bool first = true;
  LIBBPF_OPTS(bpf_map_batch_opts, opts);
  for (;;) {
    keys.resize(static_cast<size_t>(chunk) * mapKeySize);
    values.resize(chunk);
    uint32_t count = chunk;
    const int rc = bpf_map_lookup_batch(mapFd, first ? nullptr : cursorIn.data(), cursorOut.data(),
                                        keys.data(), values.data(), &count, &opts);
    const int err = rc < 0 ? -rc : 0;
    if (err != 0 && err != ENOENT) {
      if (err == ENOSPC && chunk < (1u << 24)) {
        chunk *= 2;  // one bucket holds more keys than fit: retry larger
        continue;
      }
      if (first && (err == EINVAL || err == ENOTSUP || err == EOPNOTSUPP)) {
        auto r = readByIteration(agg, grouper, mapFd, mapKeySize);
        if (!r) return r.error();
        return data;
      }
      return mapError(agg, "batch lookup", err);
    }
    for (uint32_t i = 0; i < count; i++) {
      grouper.add(keys.data() + static_cast<size_t>(i) * mapKeySize, values[i]);
    }
    if (err == ENOENT) break;
    cursorIn.swap(cursorOut);
    first = false;
    if (chunk < (1u << 16)) chunk *= 2;  // fewer system calls for large maps
  }
  return data;
}

}  // namespace dtrace::consume
