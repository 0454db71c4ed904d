#include "bpf/map.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "bpf/errors.h"
#include "bpf/map_view.h"

namespace dtrace::bpf {
namespace {

constexpr int kNotSupported = 524;  // ENOTSUPP, kernel-internal, leaks to user space

size_t roundUp(size_t value, size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

bool batchSupported(bpf_map_type type) {
  switch (type) {
    case BPF_MAP_TYPE_HASH:
    case BPF_MAP_TYPE_PERCPU_HASH:
    case BPF_MAP_TYPE_LRU_HASH:
    case BPF_MAP_TYPE_LRU_PERCPU_HASH:
    case BPF_MAP_TYPE_ARRAY:
    case BPF_MAP_TYPE_PERCPU_ARRAY:
      return true;
    default:
      return false;
  }
}

}  // namespace

Result<Map> Map::create(bpf_map_type type, const std::string& name, uint32_t keySize,
                        uint32_t valueSize, uint32_t maxEntries, uint32_t flags) {
  LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = flags);
  const std::string kernelName = kernelObjectName(name);
  const int fd = bpf_map_create(type, kernelName.c_str(), keySize, valueSize, maxEntries, &opts);
  if (fd < 0) {
    const int err = errno;
    return makeError("failed to create BPF map '" + name + "': " + errnoText(err));
  }
  return Map(Fd(fd), type, keySize, valueSize, maxEntries);
}

Result<Map> Map::createArrayOfMaps(const std::string& name, int innerMapFd, uint32_t maxEntries) {
  LIBBPF_OPTS(bpf_map_create_opts, opts, .inner_map_fd = static_cast<__u32>(innerMapFd));
  const std::string kernelName = kernelObjectName(name);
  const int fd =
      bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, kernelName.c_str(), 4, 4, maxEntries, &opts);
  if (fd < 0) {
    const int err = errno;
    return makeError("failed to create BPF map '" + name + "': " + errnoText(err));
  }
  return Map(Fd(fd), BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, maxEntries);
}

// The kernel takes a local-storage map only with BTF describing its key
// (the task's file descriptor, an int) and its value (here bytes).
Result<Map> Map::createTaskStorage(const std::string& name, uint32_t valueSize) {
  std::unique_ptr<btf, void (*)(btf*)> types(btf__new_empty(), btf__free);
  if (!types) return makeError("cannot describe BPF map '" + name + "': " + errnoText(errno));
  const int intType = btf__add_int(types.get(), "int", 4, BTF_INT_SIGNED);
  const int byteType = btf__add_int(types.get(), "char", 1, 0);
  const int valueType = btf__add_array(types.get(), intType, byteType, valueSize);
  if (intType < 0 || byteType < 0 || valueType < 0 || btf__load_into_kernel(types.get()) != 0) {
    return makeError("cannot describe BPF map '" + name + "': " + errnoText(errno));
  }
  LIBBPF_OPTS(bpf_map_create_opts, opts, .btf_fd = static_cast<__u32>(btf__fd(types.get())),
              .btf_key_type_id = static_cast<__u32>(intType),
              .btf_value_type_id = static_cast<__u32>(valueType), .map_flags = BPF_F_NO_PREALLOC);
  const std::string kernelName = kernelObjectName(name);
  const int fd =
      bpf_map_create(BPF_MAP_TYPE_TASK_STORAGE, kernelName.c_str(), 4, valueSize, 0, &opts);
  if (fd < 0) {
    const int err = errno;
    return makeError("failed to create BPF map '" + name + "': " + errnoText(err));
  }
  return Map(Fd(fd), BPF_MAP_TYPE_TASK_STORAGE, 4, valueSize, 0);
}

Map::Map(Fd fd, bpf_map_type type, uint32_t keySize, uint32_t valueSize, uint32_t maxEntries)
    : fd_(std::move(fd)),
      type_(type),
      keySize_(keySize),
      valueSize_(valueSize),
      maxEntries_(maxEntries) {}

Map::Map(Map&& other) noexcept
    : fd_(std::move(other.fd_)),
      type_(other.type_),
      keySize_(other.keySize_),
      valueSize_(other.valueSize_),
      maxEntries_(other.maxEntries_),
      mapped_(std::exchange(other.mapped_, nullptr)),
      mappedLength_(std::exchange(other.mappedLength_, 0)) {}

Map& Map::operator=(Map&& other) noexcept {
  if (this != &other) {
    unmap();
    fd_ = std::move(other.fd_);
    type_ = other.type_;
    keySize_ = other.keySize_;
    valueSize_ = other.valueSize_;
    maxEntries_ = other.maxEntries_;
    mapped_ = std::exchange(other.mapped_, nullptr);
    mappedLength_ = std::exchange(other.mappedLength_, 0);
  }
  return *this;
}

Map::~Map() { unmap(); }

void Map::unmap() {
  if (mapped_ != nullptr) munmap(mapped_, mappedLength_);
  mapped_ = nullptr;
  mappedLength_ = 0;
}

bool Map::isPerCpu() const {
  return type_ == BPF_MAP_TYPE_PERCPU_HASH || type_ == BPF_MAP_TYPE_PERCPU_ARRAY ||
         type_ == BPF_MAP_TYPE_LRU_PERCPU_HASH || type_ == BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE;
}

size_t Map::valueBufferSize() const {
  if (!isPerCpu()) return valueSize_;
  return roundUp(valueSize_, 8) * static_cast<size_t>(possibleCpus());
}

int Map::possibleCpus() {
  static const int count = [] {
    const int n = possibleCpuCount();
    return n > 0 ? n : 1;
  }();
  return count;
}

bool Map::lookup(const void* key, void* value) const { return MapView(fd()).lookup(key, value); }

Result<void> Map::update(const void* key, const void* value, uint64_t flags) {
  if (bpf_map_update_elem(fd_.get(), key, value, flags) != 0) {
    const int err = errno;
    return makeError("failed to update BPF map: " + errnoText(err));
  }
  return {};
}

Result<void> Map::fillElementCache() {
  const std::vector<uint8_t> key(keySize_, 0), value(valueSize_, 0);
  if (auto r = update(key.data(), value.data(), BPF_NOEXIST); !r) return r;
  erase(key.data());
  return {};
}

Result<void> Map::fillMapSlots(const std::vector<int>& innerFds) {
  std::vector<uint32_t> slots(innerFds.size()), fds(innerFds.begin(), innerFds.end());
  for (uint32_t i = 0; i < slots.size(); i++) slots[i] = i;
  uint32_t count = static_cast<uint32_t>(slots.size());
  if (count == 0) return {};
  if (bpf_map_update_batch(fd_.get(), slots.data(), fds.data(), &count, nullptr) == 0) return {};
  // A kernel without batch updates of this map type: one slot at a time.
  for (uint32_t i = 0; i < slots.size(); i++) {
    if (auto r = update(&slots[i], &fds[i]); !r) return r;
  }
  return {};
}

bool Map::erase(const void* key) { return MapView(fd()).erase(key); }

bool Map::nextKey(const void* key, void* next) const { return MapView(fd()).nextKey(key, next); }

Result<void*> Map::mmapValue() {
  if (mapped_ != nullptr) return mapped_;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t length = roundUp(roundUp(valueSize_, 8) * std::max<uint32_t>(maxEntries_, 1), page);
  void* addr = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd_.get(), 0);
  if (addr == MAP_FAILED) {
    const int err = errno;
    return makeError("failed to mmap BPF map (needs BPF_F_MMAPABLE): " + errnoText(err));
  }
  mapped_ = addr;
  mappedLength_ = length;
  return mapped_;
}

Result<void> Map::forEach(const std::function<void(const void*, const void*)>& fn) const {
  if (!batchSupported(type_)) return forEachByNextKey(fn);

  const size_t valueBytes = valueBufferSize();
  uint32_t chunk = std::clamp<uint32_t>(maxEntries_, 1, 8192);
  std::vector<uint8_t> keys(static_cast<size_t>(chunk) * keySize_);
  std::vector<uint8_t> values(static_cast<size_t>(chunk) * valueBytes);
  // The batch cursor is opaque to us; hash maps use 4 bytes, but give it
  // at least a key's worth of room.
  const size_t cursorSize = std::max<size_t>(keySize_, 8);
  std::vector<uint8_t> cursorIn(cursorSize), cursorOut(cursorSize);
  LIBBPF_OPTS(bpf_map_batch_opts, opts);

  bool first = true;
  for (;;) {
    uint32_t count = chunk;
    const int rc =
        bpf_map_lookup_batch(fd_.get(), first ? nullptr : cursorIn.data(), cursorOut.data(),
                             keys.data(), values.data(), &count, &opts);
    const int err = rc == 0 ? 0 : errno;
    if (err != 0 && err != ENOENT) {
      if (err == ENOSPC && count == 0) {
        // One hash bucket holds more entries than a chunk: retry bigger.
        chunk *= 2;
        keys.resize(static_cast<size_t>(chunk) * keySize_);
        values.resize(static_cast<size_t>(chunk) * valueBytes);
        continue;
      }
      if (first && (err == EINVAL || err == EOPNOTSUPP || err == kNotSupported)) {
        return forEachByNextKey(fn);
      }
      return makeError("failed to read BPF map: " + errnoText(err));
    }
    for (uint32_t i = 0; i < count; ++i) {
      fn(keys.data() + static_cast<size_t>(i) * keySize_,
         values.data() + static_cast<size_t>(i) * valueBytes);
    }
    if (err == ENOENT) return {};
    cursorIn.swap(cursorOut);
    first = false;
  }
}

Result<void> Map::forEachByNextKey(const std::function<void(const void*, const void*)>& fn) const {
  std::vector<uint8_t> key(keySize_), next(keySize_), value(valueBufferSize());
  const void* previous = nullptr;
  while (nextKey(previous, next.data())) {
    // An entry deleted between nextKey and lookup is simply skipped.
    if (lookup(next.data(), value.data())) fn(next.data(), value.data());
    key.swap(next);
    previous = key.data();
  }
  const int err = errno;
  if (err != ENOENT) return makeError("failed to iterate BPF map: " + errnoText(err));
  return {};
}

}  // namespace dtrace::bpf
