// The kernel's BTF read in place, for the few lookups a program needs
// (a type's id, a struct member's offset) without parsing it whole:
// libbpf's parse of /sys/kernel/btf/vmlinux (5.5 MB, 126,000 types) takes
// 12-14 ms, which is most of dtrace's start-up; this index maps the file
// (kernels since 6.16 allow it; older ones are read) and walks the type
// section once, in under a millisecond.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "bpf/parsed_btf.h"
#include "util/result.h"

namespace dtrace::bpf {

class BtfNameIndex {
 public:
  static Result<BtfNameIndex> openVmlinux();

  BtfNameIndex(BtfNameIndex&& other) noexcept;
  BtfNameIndex& operator=(BtfNameIndex&& other) noexcept;
  BtfNameIndex(const BtfNameIndex&) = delete;
  BtfNameIndex& operator=(const BtfNameIndex&) = delete;
  ~BtfNameIndex();

  // The id of the first type of that name and kind.
  std::optional<uint32_t> find(std::string_view name, BtfKind kind) const;
  // The name of type (or function) `id`; empty for none.
  std::string_view nameOf(uint32_t id) const;
  // The bit offset of a direct, named member of the struct or union `id`;
  // none for a member inside an anonymous struct or union.
  std::optional<uint32_t> memberBitOffset(uint32_t id, std::string_view member) const;

 private:
  BtfNameIndex() = default;
  Result<void> index();
  std::optional<uint32_t> stringOffset(std::string_view s) const;
  std::string_view stringAt(uint32_t offset) const;

  const char* data_ = nullptr;  // the whole file: mapped, or in copy_
  size_t size_ = 0;
  bool mapped_ = false;
  std::vector<char> copy_;
  const char* strings_ = nullptr;
  uint32_t stringsSize_ = 0;
  std::vector<uint32_t> typeOffsets_;  // by id - 1, from the type section's start
  const char* types_ = nullptr;
};

}  // namespace dtrace::bpf
