// Reads every entry of a large BPF hash map in batches (BPF_MAP_LOOKUP_BATCH)
// while the caller works on the batches already read: the kernel's copy of
// a million entries takes about as long as the caller's grouping of them.
#pragma once

#include <cstdint>
#include <functional>

namespace dtrace::bpf {

struct HashMapShape {
  uint32_t keySize = 0;
  uint32_t valueSize = 0;  // a multiple of 8: values are read 8-byte aligned
};

// Called on the calling thread, batch after batch; `values` holds
// valueSize bytes per entry, each 8-byte aligned.
using TakeHashMapBatch =
    std::function<void(const uint8_t* keys, const uint8_t* values, uint32_t count)>;

// How a map was read, for tests and measurements.
struct HashMapReading {
  int readers = 0;       // threads that read after the first batch
  uint32_t rereads = 0;  // batches read again because they ran past the middle
};

// Hands every entry of the BPF_MAP_TYPE_HASH `fd` to `take` once. Returns 0,
// or the errno of the lookup that failed; EINVAL, ENOTSUP or EOPNOTSUPP
// before any batch was taken mean the kernel has no batch lookups for the
// map (read it key by key instead).
//
// A map that can hold many entries is read on two threads, each from one
// half of its buckets, when the machine has a CPU to spare. Entries may be
// added to the map meanwhile (they may be missed, as with one reader), but
// not deleted: then no entry is ever taken twice.
int readHashMap(int fd, const HashMapShape& shape, const TakeHashMapBatch& take,
                HashMapReading* reading = nullptr);

}  // namespace dtrace::bpf
