// Vectors for the consumer's largest arrays: a snapshot of a million
// aggregation keys holds hundreds of MiB. Blocks of 2 MiB and more are
// mapped on their own, 2 MiB-aligned, and offered transparent huge pages:
// touching fresh memory 4 KiB at a time costs more than everything else a
// snapshot does on a virtual machine (about 6 us a page), and glibc maps
// blocks that large afresh on each allocation.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

namespace dtrace {

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

// Maps `bytes` (a multiple of kHugePageBytes) at a huge-page boundary.
inline void* mapHugePageBlock(size_t bytes) {
  const size_t span = bytes + kHugePageBytes;
  void* base = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) throw std::bad_alloc();
  const uintptr_t start = reinterpret_cast<uintptr_t>(base);
  const uintptr_t aligned = (start + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  if (aligned > start) munmap(base, aligned - start);
  const uintptr_t end = aligned + bytes;
  if (start + span > end) munmap(reinterpret_cast<void*>(end), start + span - end);
  void* block = reinterpret_cast<void*>(aligned);
  (void)madvise(block, bytes, MADV_HUGEPAGE);  // a hint: without THP, 4 KiB pages
  return block;
}

template <class T>
struct LargeAllocator {
  using value_type = T;
  LargeAllocator() = default;
  template <class U>
  LargeAllocator(const LargeAllocator<U>&) {}

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kHugePageBytes) return std::allocator<T>().allocate(n);
    return static_cast<T*>(mapHugePageBlock(roundUp(bytes)));
  }
  void deallocate(T* p, size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < kHugePageBytes) {
      std::allocator<T>().deallocate(p, n);
    } else {
      munmap(p, roundUp(bytes));
    }
  }
  template <class U>
  bool operator==(const LargeAllocator<U>&) const {
    return true;
  }

 private:
  static size_t roundUp(size_t bytes) {
    return (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  }
};

template <class T>
using LargeVector = std::vector<T, LargeAllocator<T>>;

}  // namespace dtrace
