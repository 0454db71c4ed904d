#include "consume/aggregation_reader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "bpf/hash_map_reader.h"
#include "bpf/map_view.h"

namespace dtrace::consume {

namespace {

Error mapError(const ir::Aggregation& agg, const char* what, int err) {
  return makeError("failed to read aggregation @" + agg.name + ": " + what + ": " +
                   std::strerror(err));
}

// Groups the map's (tuple, CPU) entries — (tuple, CPU, bucket) for
// distributions — by tuple: each CPU updates only its own entries, and the
// consumer merges them, as DTrace merges per-CPU aggregation buffers. An
// open-addressing table of entry indices finds a tuple's entry without
// allocating per tuple.
class Grouper {
 public:
  Grouper(AggregationData& data, uint32_t keySize, uint64_t generation,
          const SymbolKeys* symbolKeys)
      : data_(data),
        keySize_(keySize),
        bucketed_(data.aggregation->bucketed()),
        generation_(generation),
        symbolKeys_(symbolKeys) {
    if (symbolKeys_ && !SymbolKeys::merges(*data_.aggregation)) symbolKeys_ = nullptr;
  }

  // One map entry: the key (tuple, CPU) and the value (generation, words).
  void add(const uint8_t* mapKey, const uint8_t* value) {
    if (symbolKeys_) {  // group by what the key names
      normalized_.assign(mapKey, mapKey + keySize_ + ir::kAggregationCpuSlot);
      symbolKeys_->normalize(*data_.aggregation, normalized_.data());
      mapKey = normalized_.data();
    }
    uint64_t slotWord = 0, generation = 0;
    std::memcpy(&slotWord, mapKey + keySize_, sizeof slotWord);
    std::memcpy(&generation, value, sizeof generation);
    const uint32_t cpu = static_cast<uint32_t>(slotWord);
    if (cpu >= static_cast<uint32_t>(data_.ncpus())) return;
    if (2 * (data_.size() + 1) > table_.size()) grow();
    const uint32_t tag = hash(mapKey);
    size_t i = find(mapKey, tag);
    if (table_[i] == kEmpty) {
      table_[i] = uint64_t{tag} << 32 | static_cast<uint32_t>(data_.add(mapKey));
    }
    // The words are 8-byte aligned in the buffers the map is read into.
    const auto* words =
        reinterpret_cast<const int64_t*>(value + 8 * ir::kAggregationGenerationWords);
    const uint32_t row = static_cast<uint32_t>(table_[i]);
    const CpuSlot slot = generation == generation_ ? CpuSlot::Current : CpuSlot::Cleared;
    if (bucketed_) {
      data_.foldBucket(row, static_cast<int>(cpu), slot,
                       static_cast<uint32_t>(slotWord >> ir::kAggregationBucketShift), words[0],
                       words[1]);
    } else {
      data_.fold(row, static_cast<int>(cpu), slot, words);
    }
  }

  // Asks the cache for the table slot where `mapKey`'s search starts: the
  // table of a large map is far larger than the cache, and each add()
  // would otherwise wait for its slot.
  void prefetch(const uint8_t* mapKey) const {
    if (symbolKeys_ || table_.empty()) return;
    __builtin_prefetch(&table_[hash(mapKey) & (table_.size() - 1)]);
  }

 private:
  // A slot holds the tuple's hash (high half) and its index (low half), so
  // probing and growing rarely touch the keys themselves.
  static constexpr uint64_t kEmpty = UINT64_MAX;

  uint32_t hash(const uint8_t* key) const {
    uint64_t h = 1469598103934665603ull;  // FNV-1a over 8-byte words
    for (uint32_t off = 0; off < keySize_; off += 8) {
      uint64_t w = 0;
      std::memcpy(&w, key + off, std::min<uint32_t>(8, keySize_ - off));
      h = (h ^ w) * 1099511628211ull;
      h ^= h >> 29;
    }
    return static_cast<uint32_t>(h ^ (h >> 32));
  }
  // The slot holding `key`, or the empty slot where it belongs.
  size_t find(const uint8_t* key, uint32_t tag) const {
    const size_t mask = table_.size() - 1;
    for (size_t i = tag & mask;; i = (i + 1) & mask) {
      const uint64_t slot = table_[i];
      if (slot == kEmpty) return i;
      if (slot >> 32 == tag &&
          std::memcmp(data_.key(static_cast<uint32_t>(slot)), key, keySize_) == 0) {
        return i;
      }
    }
  }
  void grow() {
    LargeVector<uint64_t> old = std::move(table_);
    table_.assign(std::max<size_t>(64, old.size() * 2), kEmpty);
    const size_t mask = table_.size() - 1;
    for (uint64_t slot : old) {
      if (slot == kEmpty) continue;
      size_t i = (slot >> 32) & mask;
      while (table_[i] != kEmpty) i = (i + 1) & mask;
      table_[i] = slot;
    }
  }

  AggregationData& data_;
  uint32_t keySize_;
  bool bucketed_;  // an entry holds one bucket of a distribution
  uint64_t generation_;
  const SymbolKeys* symbolKeys_;
  std::vector<uint8_t> normalized_;  // the key being added, normalized
  LargeVector<uint64_t> table_;
};

// One key at a time: for kernels without batch lookups.
Result<void> readByIteration(const ir::Aggregation& agg, Grouper& grouper, bpf::MapView map,
                             uint32_t mapKeySize) {
  std::vector<uint8_t> prev(mapKeySize), next(mapKeySize);
  std::vector<int64_t> value(agg.valueSize() / 8);
  bool first = true;
  while (map.nextKey(first ? nullptr : prev.data(), next.data())) {
    first = false;
    // A key deleted between the two calls is simply skipped.
    if (map.lookup(next.data(), value.data())) {
      grouper.add(next.data(), reinterpret_cast<const uint8_t*>(value.data()));
    } else if (errno != ENOENT) {
      return mapError(agg, "lookup", errno);
    }
    prev.swap(next);
  }
  if (errno != ENOENT) return mapError(agg, "iteration", errno);
  return {};
}

}  // namespace

Result<AggregationData> readAggregation(const ir::Aggregation& agg, int mapFd, uint64_t generation,
                                        bool perCpu, const SymbolKeys* symbolKeys) {
  const int ncpus = bpf::possibleCpuCount();
  if (ncpus <= 0) return makeError("failed to count the possible CPUs");
  AggregationData data(&agg, ncpus, perCpu);
  // A map holds at most maxEntries; beyond a few million the arrays grow.
  data.reserve(std::min<size_t>(agg.maxEntries, size_t{1} << 24));
  const uint32_t mapKeySize = agg.keySize + ir::kAggregationCpuSlot;
  Grouper grouper(data, agg.keySize, generation, symbolKeys);
  const bpf::HashMapShape shape{mapKeySize, agg.valueSize()};
  bool taken = false;
  const int err = bpf::readHashMap(
      mapFd, shape, [&](const uint8_t* keys, const uint8_t* values, uint32_t count) {
        taken = true;
        constexpr uint32_t kFetchAhead = 8;
        for (uint32_t e = 0; e < count; e++) {
          if (e + kFetchAhead < count) {
            grouper.prefetch(keys + static_cast<size_t>(e + kFetchAhead) * mapKeySize);
          }
          grouper.add(keys + static_cast<size_t>(e) * mapKeySize,
                      values + static_cast<size_t>(e) * shape.valueSize);
        }
      });
  if (!taken && (err == EINVAL || err == ENOTSUP || err == EOPNOTSUPP)) {
    auto r = readByIteration(agg, grouper, bpf::MapView(mapFd), mapKeySize);
    if (!r) return r.error();
  } else if (err != 0) {
    return mapError(agg, "batch lookup", err);
  }
  data.finish();
  return data;
}

}  // namespace dtrace::consume
