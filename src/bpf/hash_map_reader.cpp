#include "bpf/hash_map_reader.h"

#include <bpf/bpf.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

namespace dtrace::bpf {

namespace {

// Batches stop doubling their size here, so buffers stay cache-sized even
// for 1 KiB values.
constexpr size_t kBatchBytes = 4 << 20;
constexpr uint32_t kFirstChunk = 4096;
constexpr uint32_t kMaxChunk = 1u << 16;
// Maps that can hold this many entries are read on two threads.
constexpr uint32_t kTwoReadersFrom = 1u << 16;

// The kernel's hash maps have a power-of-two number of buckets, at least
// max_entries, and their batch cursor is the index of the next bucket to
// read, a u32 (kernel/bpf/hashtab.c, since batch lookups came in Linux
// 5.6). The two readers split the buckets in the middle by that index.
uint32_t middleBucket(uint32_t maxEntries) {
  return maxEntries > (1u << 31) ? 1u << 31 : std::bit_ceil(maxEntries) / 2;
}
uint32_t bucketAt(const std::vector<uint8_t>& cursor) {
  uint32_t bucket = 0;
  std::memcpy(&bucket, cursor.data(), sizeof bucket);
  return bucket;
}

struct Batch {
  std::vector<uint8_t> keys;
  std::vector<uint64_t> values;
  std::vector<uint8_t> next;  // the cursor where the following batch starts
  uint32_t count = 0;
  int err = 0;  // 0: more to come; ENOENT: the map's end; else the failure
  int reader = 0;
};

// Reads up to `chunk` entries (whole buckets) from `cursor` (null: the
// map's start). A bucket larger than `chunk` makes the chunk grow: doubled,
// or one at a time with `exact`, so that a batch asked for one entry holds
// exactly one bucket.
void readBatch(int fd, const HashMapShape& shape, const uint8_t* cursor, uint32_t chunk, bool exact,
               Batch& batch) {
  LIBBPF_OPTS(bpf_map_batch_opts, opts);
  const size_t valueWords = shape.valueSize / 8;
  for (;;) {
    batch.keys.resize(static_cast<size_t>(chunk) * shape.keySize);
    batch.values.resize(static_cast<size_t>(chunk) * valueWords);
    batch.next.resize(std::max<size_t>(shape.keySize, 8));  // room for any cursor
    batch.count = chunk;
    // libbpf's in_batch is not const, but the kernel only reads it.
    const int rc =
        bpf_map_lookup_batch(fd, const_cast<uint8_t*>(cursor), batch.next.data(), batch.keys.data(),
                             batch.values.data(), &batch.count, &opts);
    batch.err = rc < 0 ? -rc : 0;
    if (batch.err == ENOSPC && chunk < (1u << 24)) {
      chunk = exact ? chunk + 1 : chunk * 2;
      continue;
    }
    if (batch.err != 0 && batch.err != ENOENT) batch.count = 0;
    return;
  }
}

uint32_t grown(uint32_t chunk, const HashMapShape& shape) {
  const size_t entryBytes = shape.keySize + shape.valueSize;
  return chunk < kMaxChunk && chunk * entryBytes < kBatchBytes ? chunk * 2 : chunk;
}

// Where readers get empty batches and put full ones.
class BatchSink {
 public:
  virtual ~BatchSink() = default;
  // Null once reading was abandoned.
  virtual Batch* acquire(int reader) = 0;
  virtual void deliver(Batch* batch) = 0;
  virtual void release(Batch* batch) = 0;
  // A reader is done; err 0, or the errno that stopped it.
  virtual void finish(int err) = 0;
};

// One reader on the calling thread: each batch is taken as soon as it is read.
class DirectSink : public BatchSink {
 public:
  explicit DirectSink(const TakeHashMapBatch& take) : take_(take) {}
  Batch* acquire(int) override { return &batch_; }
  void deliver(Batch* batch) override {
    take_(batch->keys.data(), reinterpret_cast<const uint8_t*>(batch->values.data()), batch->count);
  }
  void release(Batch*) override {}
  void finish(int err) override { err_ = err; }
  int err() const { return err_; }

 private:
  const TakeHashMapBatch& take_;
  Batch batch_;
  int err_ = 0;
};

// Readers on threads of their own, the calling thread taking their batches:
// each reader has two buffers, one read into while the other is taken.
class BatchPipe : public BatchSink {
 public:
  explicit BatchPipe(int readers) : free_(static_cast<size_t>(readers)), running_(readers) {
    for (int r = 0; r < readers; r++) {
      for (int i = 0; i < 2; i++) {
        batches_.push_back(std::make_unique<Batch>());
        batches_.back()->reader = r;
        free_[static_cast<size_t>(r)].push_back(batches_.back().get());
      }
    }
  }
  Batch* acquire(int reader) override {
    std::unique_lock lock(mutex_);
    auto& mine = free_[static_cast<size_t>(reader)];
    changed_.wait(lock, [&] { return abandoned_ || !mine.empty(); });
    if (abandoned_) return nullptr;
    Batch* batch = mine.back();
    mine.pop_back();
    return batch;
  }
  void deliver(Batch* batch) override {
    std::lock_guard lock(mutex_);
    full_.push_back(batch);
    changed_.notify_all();
  }
  void release(Batch* batch) override {
    std::lock_guard lock(mutex_);
    free_[static_cast<size_t>(batch->reader)].push_back(batch);
    changed_.notify_all();
  }
  void finish(int err) override {
    std::lock_guard lock(mutex_);
    running_--;
    if (err != 0 && err_ == 0) {
      err_ = err;
      abandoned_ = true;  // the other reader stops at its next batch
    }
    changed_.notify_all();
  }
  void abandon() {
    std::lock_guard lock(mutex_);
    abandoned_ = true;
    changed_.notify_all();
  }
  // The next full batch; null once every reader is done (or one failed).
  Batch* next() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return abandoned_ || !full_.empty() || running_ == 0; });
    if (abandoned_ || full_.empty()) return nullptr;
    Batch* batch = full_.front();
    full_.pop_front();
    return batch;
  }
  int err() {
    std::lock_guard lock(mutex_);
    return err_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::unique_ptr<Batch>> batches_;
  std::vector<std::vector<Batch*>> free_;
  std::deque<Batch*> full_;
  int running_;
  int err_ = 0;
  bool abandoned_ = false;
};

// Reads the buckets from `cursor` (after `entriesBefore` entries) on, to
// the end or to the bucket `stopAt`. A batch holds whole buckets and
// cannot be told where to stop, so near `stopAt` the reader asks for about
// half the entries it expects before it, and a batch that runs past it is
// read again smaller, down to one bucket. A batch ends at a bucket that
// holds entries (the cursor the kernel returns), and entries are only ever
// added while a map is read, so one bucket read from a cursor below
// `stopAt` is below it.
void readBuckets(int fd, const HashMapShape& shape, int reader, std::vector<uint8_t> cursor,
                 uint64_t entriesBefore, std::optional<uint32_t> stopAt, BatchSink& sink,
                 uint32_t& rereads) {
  uint32_t chunk = grown(kFirstChunk, shape);
  Batch* batch = sink.acquire(reader);
  while (batch != nullptr) {
    uint32_t ask = chunk;
    if (stopAt) {
      const uint32_t at = bucketAt(cursor);
      if (at >= *stopAt) break;
      if (at > 0) {
        const uint64_t expected = uint64_t{*stopAt - at} * entriesBefore / at;
        ask = static_cast<uint32_t>(std::clamp<uint64_t>(expected / 2, 1, chunk));
      }
    }
    readBatch(fd, shape, cursor.data(), ask, ask == 1, *batch);
    if (batch->err != 0 && batch->err != ENOENT) {
      sink.finish(batch->err);
      return;
    }
    const bool end = batch->err == ENOENT;
    if (stopAt && ask > 1 && (end || bucketAt(batch->next) > *stopAt)) {
      chunk = std::max<uint32_t>(1, ask / 4);
      rereads++;
      continue;
    }
    cursor = batch->next;
    entriesBefore += batch->count;
    if (batch->count > 0) {
      sink.deliver(batch);
    } else {
      sink.release(batch);
    }
    if (end) {
      sink.finish(0);
      return;
    }
    chunk = grown(chunk, shape);
    batch = sink.acquire(reader);
  }
  if (batch != nullptr) sink.release(batch);
  sink.finish(0);
}

}  // namespace

int readHashMap(int fd, const HashMapShape& shape, const TakeHashMapBatch& take,
                HashMapReading* reading) {
  HashMapReading unused;
  HashMapReading& stats = reading ? *reading : unused;
  stats = {};
  // A map that fits in one batch is read with one system call, here.
  Batch first;
  readBatch(fd, shape, nullptr, kFirstChunk, false, first);
  if (first.err != 0 && first.err != ENOENT) return first.err;
  if (first.count > 0) {
    take(first.keys.data(), reinterpret_cast<const uint8_t*>(first.values.data()), first.count);
  }
  if (first.err == ENOENT) return 0;

  bpf_map_info info{};
  uint32_t infoSize = sizeof info;
  const uint32_t maxEntries =
      bpf_map_get_info_by_fd(fd, &info, &infoSize) == 0 ? info.max_entries : 0;
  const uint32_t middle = middleBucket(maxEntries);
  // A first batch past the middle: too few entries to share out.
  const bool twoReaders = maxEntries >= kTwoReadersFrom &&
                          std::thread::hardware_concurrency() >= 2 &&
                          bucketAt(first.next) <= middle;
  std::vector<uint8_t> upperStart(first.next.size());
  std::memcpy(upperStart.data(), &middle, sizeof middle);
  BatchPipe pipe(twoReaders ? 2 : 1);
  std::vector<std::thread> threads;
  try {
    if (twoReaders) {
      threads.emplace_back([&] {
        uint32_t none = 0;
        readBuckets(fd, shape, 1, upperStart, 0, std::nullopt, pipe, none);
      });
      threads.emplace_back(
          [&] { readBuckets(fd, shape, 0, first.next, first.count, middle, pipe, stats.rereads); });
    } else {
      threads.emplace_back([&] {
        readBuckets(fd, shape, 0, first.next, first.count, std::nullopt, pipe, stats.rereads);
      });
    }
  } catch (const std::system_error&) {
    // No thread to spare: read the rest here.
    pipe.abandon();
    for (std::thread& t : threads) t.join();
    DirectSink direct(take);
    readBuckets(fd, shape, 0, first.next, first.count, std::nullopt, direct, stats.rereads);
    stats.readers = 1;
    return direct.err();
  }
  stats.readers = static_cast<int>(threads.size());
  while (Batch* batch = pipe.next()) {
    take(batch->keys.data(), reinterpret_cast<const uint8_t*>(batch->values.data()), batch->count);
    pipe.release(batch);
  }
  pipe.abandon();  // after a failure, the other reader may still wait for a buffer
  for (std::thread& t : threads) t.join();
  return pipe.err();
}

}  // namespace dtrace::bpf
