// A BPF map owned by the consumer: created through libbpf's thin bpf(2)
// wrappers, closed (and unmapped) when the object dies.
#pragma once

#include <linux/bpf.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "util/fd.h"
#include "util/result.h"

namespace dtrace::bpf {

class Map {
 public:
  // For BPF_MAP_TYPE_RINGBUF pass keySize = valueSize = 0 and the buffer size
  // (a power of two, multiple of the page size) as maxEntries. The name is
  // made kernel-safe (see kernelObjectName).
  static Result<Map> create(bpf_map_type type, const std::string& name, uint32_t keySize,
                            uint32_t valueSize, uint32_t maxEntries, uint32_t flags = 0);
  // A BPF_MAP_TYPE_ARRAY_OF_MAPS of maxEntries slots whose maps are alike
  // `innerMapFd` (same type and size).
  static Result<Map> createArrayOfMaps(const std::string& name, int innerMapFd,
                                       uint32_t maxEntries);

  // A BPF_MAP_TYPE_TASK_STORAGE: one value of valueSize bytes per thread,
  // made when a program first asks for it, freed when the thread exits.
  static Result<Map> createTaskStorage(const std::string& name, uint32_t valueSize);

  Map(Map&& other) noexcept;
  Map& operator=(Map&& other) noexcept;
  Map(const Map&) = delete;
  Map& operator=(const Map&) = delete;
  ~Map();

  int fd() const { return fd_.get(); }
  bpf_map_type type() const { return type_; }
  uint32_t keySize() const { return keySize_; }
  uint32_t valueSize() const { return valueSize_; }
  uint32_t maxEntries() const { return maxEntries_; }
  bool isPerCpu() const;
  // Bytes that lookup() writes into `value`: valueSize, or for per-CPU maps
  // one slot of valueSize rounded up to 8 per possible CPU.
  size_t valueBufferSize() const;

  // Returns true and fills `value` (valueBufferSize() bytes) if the key is
  // present; false if absent (or on any other error).
  bool lookup(const void* key, void* value) const;
  // flags: BPF_ANY, BPF_NOEXIST or BPF_EXIST. Per-CPU maps take
  // valueBufferSize() bytes, one slot per CPU.
  Result<void> update(const void* key, const void* value, uint64_t flags = BPF_ANY);
  // Puts the maps `innerFds` in slots 0, 1, ... of this array of maps.
  // Each update of an array of maps waits for an RCU grace period (so
  // that no running program still sees the old map): 10-25 ms on a small
  // VM. A batch waits once for all of its slots.
  Result<void> fillMapSlots(const std::vector<int>& innerFds);
  // Returns true if the key existed and was deleted.
  bool erase(const void* key);
  // A hash map made without preallocation takes its elements from per-CPU
  // caches the kernel refills from irq_work. A new map's cache holds one
  // element (four when they are small), so a probe that stores a second new
  // key before interrupts are enabled again (sched's wakeup and enqueue
  // fire in one wakeup) finds none and drops it. One element stored and
  // deleted has the kernel fill the calling CPU's cache. Call it on an
  // empty map, on each CPU, before programs use the map.
  Result<void> fillElementCache();
  // Key after `key` (or the first key when `key` is null) into `next`;
  // false at the end of the map.
  bool nextKey(const void* key, void* next) const;

  // Maps the values of a BPF_F_MMAPABLE array map into this process; the
  // pointer stays valid until the Map is destroyed.
  Result<void*> mmapValue();

  // Calls fn for every entry. Uses batched lookups (one syscall for many
  // entries) where the kernel supports them for this map type, else walks
  // keys with nextKey + lookup. Entries changing meanwhile may be missed.
  Result<void> forEach(const std::function<void(const void* key, const void* value)>& fn) const;
  Result<void> forEachByNextKey(
      const std::function<void(const void* key, const void* value)>& fn) const;

  // Number of possible CPUs (libbpf_num_possible_cpus), cached.
  static int possibleCpus();

 private:
  Map(Fd fd, bpf_map_type type, uint32_t keySize, uint32_t valueSize, uint32_t maxEntries);
  void unmap();

  Fd fd_;
  bpf_map_type type_;
  uint32_t keySize_;
  uint32_t valueSize_;
  uint32_t maxEntries_;
  void* mapped_ = nullptr;
  size_t mappedLength_ = 0;
};

}  // namespace dtrace::bpf
