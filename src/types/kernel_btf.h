// The kernel's own type information (BTF at /sys/kernel/btf/vmlinux),
// loaded on first use only: scripts that name no kernel type never pay the
// cost of parsing it.
#pragma once

#include <cstdint>

#include "util/result.h"

struct btf;

namespace dtrace::types {

class KernelBtf {
 public:
  static KernelBtf& instance();
  ~KernelBtf();

  // Byte offset of `member` in `struct type` (a direct member, or one of
  // an anonymous struct or union member, as C finds it).
  Result<uint32_t> memberOffset(const char* type, const char* member);
  // The parsed BTF, loaded on the first call.
  Result<struct btf*> load();

 private:
  KernelBtf() = default;
  struct btf* btf_ = nullptr;
  bool tried_ = false;
};

}  // namespace dtrace::types
