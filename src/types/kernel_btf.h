// The kernel's own type information (BTF at /sys/kernel/btf/vmlinux),
// loaded on first use only: scripts that name no kernel type never pay the
// cost of parsing it.
#pragma once

#include <cstdint>
#include <optional>

#include "bpf/parsed_btf.h"
#include "util/result.h"

namespace dtrace::types {

class KernelBtf {
 public:
  static KernelBtf& instance();

  // Byte offset of `member` in `struct type` (a direct member, or one of
  // an anonymous struct or union member, as C finds it).
  Result<uint32_t> memberOffset(const char* type, const char* member);
  // The parsed BTF, loaded on the first call.
  Result<const bpf::Btf*> load();

 private:
  KernelBtf() = default;
  std::optional<Result<bpf::Btf>> btf_;  // empty until the first load()
};

}  // namespace dtrace::types
