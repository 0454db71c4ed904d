#include "consume/aggregation_reader.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <future>
#include <system_error>
#include <vector>

namespace dtrace::consume {

namespace {

// Batch reads stop doubling their size here, so buffers stay cache-sized
// even for 1 KiB quantize() values.
constexpr size_t kBatchBytes = 4 << 20;

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
                       static_cast<uint32_t>(slotWord >> ir::kAggregationBucketShift), words[0]);
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
Result<void> readByIteration(const ir::Aggregation& agg, Grouper& grouper, int fd,
                             uint32_t mapKeySize) {
  std::vector<uint8_t> prev(mapKeySize), next(mapKeySize);
  std::vector<int64_t> value(agg.valueSize() / 8);
  bool first = true;
  while (bpf_map_get_next_key(fd, first ? nullptr : prev.data(), next.data()) == 0) {
    first = false;
    // A key deleted between the two calls is simply skipped.
    if (bpf_map_lookup_elem(fd, next.data(), value.data()) == 0) {
      grouper.add(next.data(), reinterpret_cast<const uint8_t*>(value.data()));
    } else if (errno != ENOENT) {
      return mapError(agg, "lookup", errno);
    }
    prev.swap(next);
  }
  if (errno != ENOENT) return mapError(agg, "iteration", errno);
  return {};
}

// One batch of map entries and the cursor where the next batch starts.
struct Batch {
  std::vector<uint8_t> keys;
  std::vector<int64_t> values;
  std::vector<uint8_t> next;
  uint32_t count = 0;
  int err = 0;  // 0: more to come; ENOENT: the map's end; else the failure
};

// Reads up to `chunk` entries from `cursor` (null: the map's start), more
// if one bucket holds more keys than that.
void readBatch(int mapFd, const uint8_t* cursor, uint32_t chunk, uint32_t mapKeySize,
               size_t valueWords, Batch& batch) {
  LIBBPF_OPTS(bpf_map_batch_opts, opts);
  for (;;) {
    batch.keys.resize(static_cast<size_t>(chunk) * mapKeySize);
    batch.values.resize(static_cast<size_t>(chunk) * valueWords);
    batch.next.resize(mapKeySize);  // hash maps use a bucket cursor: room for any key
    batch.count = chunk;
    // libbpf's in_batch is not const, but the kernel only reads it.
    const int rc =
        bpf_map_lookup_batch(mapFd, const_cast<uint8_t*>(cursor), batch.next.data(),
                             batch.keys.data(), batch.values.data(), &batch.count, &opts);
    batch.err = rc < 0 ? -rc : 0;
    if (batch.err == ENOSPC && chunk < (1u << 24)) {
      chunk *= 2;
      continue;
    }
    if (batch.err != 0 && batch.err != ENOENT) batch.count = 0;
    return;
  }
}

}  // namespace

Result<AggregationData> readAggregation(const ir::Aggregation& agg, int mapFd, uint64_t generation,
                                        bool perCpu, const SymbolKeys* symbolKeys) {
  const int ncpus = libbpf_num_possible_cpus();
  if (ncpus <= 0) return makeError("failed to count the possible CPUs");
  AggregationData data(&agg, ncpus, perCpu);
  // A map holds at most maxEntries; beyond a few million the arrays grow.
  data.reserve(std::min<size_t>(agg.maxEntries, size_t{1} << 24));
  const uint32_t mapKeySize = agg.keySize + ir::kAggregationCpuSlot;
  Grouper grouper(data, agg.keySize, generation, symbolKeys);
  const size_t valueWords = agg.valueSize() / 8;
  uint32_t chunk = 4096;
  Batch batches[2];
  readBatch(mapFd, nullptr, chunk, mapKeySize, valueWords, batches[0]);
  const int firstErr = batches[0].err;
  if (firstErr == EINVAL || firstErr == ENOTSUP || firstErr == EOPNOTSUPP) {
    auto r = readByIteration(agg, grouper, mapFd, mapKeySize);
    if (!r) return r.error();
    data.finish();
    return data;
  }
  // A large map's next batch is read on a thread of its own while this one
  // groups the last: the kernel's copy and the grouping cost about the same.
  for (size_t i = 0;; i++) {
    const Batch& batch = batches[i % 2];
    if (batch.err != 0 && batch.err != ENOENT) return mapError(agg, "batch lookup", batch.err);
    const bool more = batch.err == 0;
    // Fewer system calls for large maps, in buffers that stay in the cache.
    if (chunk < (1u << 16) &&
        static_cast<size_t>(chunk) * (mapKeySize + 8 * valueWords) < kBatchBytes) {
      chunk *= 2;
    }
    std::future<void> reading;
    if (more) {
      Batch& into = batches[(i + 1) % 2];
      auto readNext = [&, chunk] {
        readBatch(mapFd, batch.next.data(), chunk, mapKeySize, valueWords, into);
      };
      try {
        reading = std::async(std::launch::async, readNext);
      } catch (const std::system_error&) {
        readNext();  // no thread to spare: read it here, first
      }
    }
    constexpr uint32_t kFetchAhead = 8;
    for (uint32_t e = 0; e < batch.count; e++) {
      if (e + kFetchAhead < batch.count) {
        grouper.prefetch(batch.keys.data() + static_cast<size_t>(e + kFetchAhead) * mapKeySize);
      }
      grouper.add(batch.keys.data() + static_cast<size_t>(e) * mapKeySize,
                  reinterpret_cast<const uint8_t*>(batch.values.data() + e * valueWords));
    }
    if (!more) break;
    if (reading.valid()) reading.get();
  }
  data.finish();
  return data;
}

}  // namespace dtrace::consume
