#include "consume/aggregation_reader.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>

namespace dtrace::consume {
namespace {

// The kernel rounds each CPU's slot of a per-CPU value up to 8 bytes.
constexpr size_t kSlotSize = (sizeof(ir::AggValue) + 7) / 8 * 8;

void addEntry(AggregationData& data, const uint8_t* key, uint32_t keySize, const uint8_t* values,
              int ncpus) {
  AggregationEntry entry;
  entry.key.assign(key, key + keySize);
  entry.perCpu.resize(static_cast<size_t>(ncpus));
  for (int cpu = 0; cpu < ncpus; cpu++) {
    std::memcpy(&entry.perCpu[static_cast<size_t>(cpu)], values + cpu * kSlotSize,
                sizeof(ir::AggValue));
  }
  data.entries.push_back(std::move(entry));
}

Error mapError(const ir::Aggregation& agg, const char* what, int err) {
  return makeError("failed to read aggregation @" + agg.name + ": " + what + ": " +
                   std::strerror(err));
}

// One key at a time: for kernels without batch lookups.
Result<void> readByIteration(AggregationData& data, int fd, uint32_t keySize, int ncpus) {
  const ir::Aggregation& agg = *data.aggregation;
  std::vector<uint8_t> prev(keySize), next(keySize), values(kSlotSize * ncpus);
  bool first = true;
  while (bpf_map_get_next_key(fd, first ? nullptr : prev.data(), next.data()) == 0) {
    first = false;
    // A key deleted between the two calls is simply skipped.
    if (bpf_map_lookup_elem(fd, next.data(), values.data()) == 0) {
      addEntry(data, next.data(), keySize, values.data(), ncpus);
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
  const uint32_t keySize = agg.keySize;

  uint32_t chunk = 4096;
  std::vector<uint8_t> keys, values;
  // Hash maps use a bucket cursor; give it room for any key.
  std::vector<uint8_t> cursorIn(keySize < 8 ? 8 : keySize), cursorOut(cursorIn.size());
  bool first = true;
  LIBBPF_OPTS(bpf_map_batch_opts, opts);
  for (;;) {
    keys.resize(static_cast<size_t>(chunk) * keySize);
    values.resize(static_cast<size_t>(chunk) * kSlotSize * ncpus);
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
        auto r = readByIteration(data, mapFd, keySize, ncpus);
        if (!r) return r.error();
        return data;
      }
      return mapError(agg, "batch lookup", err);
    }
    for (uint32_t i = 0; i < count; i++) {
      addEntry(data, keys.data() + static_cast<size_t>(i) * keySize, keySize,
               values.data() + static_cast<size_t>(i) * kSlotSize * ncpus, ncpus);
    }
    if (err == ENOENT) break;
    cursorIn.swap(cursorOut);
    first = false;
  }
  return data;
}

}  // namespace dtrace::consume
