// The kernel's own type information (BTF at /sys/kernel/btf/vmlinux),
// loaded on first use only: scripts that name no kernel type never pay the
// cost of parsing it, and those that only need an id or a member's offset
// (built-ins, the syscall guard) read it in place (bpf/btf_name_index.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "bpf/btf_name_index.h"
#include "bpf/parsed_btf.h"
#include "util/result.h"

namespace dtrace::types {

class KernelBtf {
 public:
  static KernelBtf& instance();

  // Byte offset of `member` in `struct type` (a direct member, or one of
  // an anonymous struct or union member, as C finds it).
  Result<uint32_t> memberOffset(const char* type, const char* member);
  // The id of the kernel type (or function) of that name and kind, from
  // the index: no parse, and each name looked up once.
  std::optional<uint32_t> typeId(const char* name, bpf::BtfKind kind);
  // The parsed BTF, loaded on the first call.
  Result<const bpf::Btf*> load();

 private:
  KernelBtf() = default;
  Result<const bpf::BtfNameIndex*> nameIndex();

  std::optional<Result<bpf::Btf>> btf_;             // empty until the first load()
  std::optional<Result<bpf::BtfNameIndex>> index_;  // empty until first used
  std::map<std::pair<std::string, bpf::BtfKind>, std::optional<uint32_t>> typeIds_;
};

}  // namespace dtrace::types
