#include "bpf/btf_name_index.h"

#include <fcntl.h>
#include <linux/btf.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

namespace dtrace::bpf {

namespace {

constexpr const char* kVmlinuxPath = "/sys/kernel/btf/vmlinux";

// The bytes that follow a type's btf_type header.
size_t trailingBytes(const btf_type& t) {
  const uint32_t vlen = BTF_INFO_VLEN(t.info);
  switch (BTF_INFO_KIND(t.info)) {
    case BTF_KIND_INT:
      return sizeof(uint32_t);
    case BTF_KIND_ARRAY:
      return sizeof(btf_array);
    case BTF_KIND_STRUCT:
    case BTF_KIND_UNION:
      return vlen * sizeof(btf_member);
    case BTF_KIND_ENUM:
      return vlen * sizeof(btf_enum);
    case BTF_KIND_ENUM64:
      return vlen * sizeof(btf_enum64);
    case BTF_KIND_FUNC_PROTO:
      return vlen * sizeof(btf_param);
    case BTF_KIND_VAR:
      return sizeof(btf_var);
    case BTF_KIND_DATASEC:
      return vlen * sizeof(btf_var_secinfo);
    case BTF_KIND_DECL_TAG:
      return sizeof(btf_decl_tag);
    default:
      return 0;
  }
}

}  // namespace

Result<BtfNameIndex> BtfNameIndex::openVmlinux() {
  const int fd = ::open(kVmlinuxPath, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return makeError(std::string(kVmlinuxPath) + ": " + std::strerror(errno));
  BtfNameIndex index;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size > 0) {
    index.size_ = static_cast<size_t>(st.st_size);
    void* p = ::mmap(nullptr, index.size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p != MAP_FAILED) {
      index.data_ = static_cast<const char*>(p);
      index.mapped_ = true;
    }
  }
  if (!index.mapped_) {  // before 6.16 the file cannot be mapped: read it
    char buf[1 << 16];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof(buf))) > 0)
      index.copy_.insert(index.copy_.end(), buf, buf + n);
    index.data_ = index.copy_.data();
    index.size_ = index.copy_.size();
  }
  ::close(fd);
  if (auto indexed = index.index(); !indexed) return indexed.error();
  return index;
}

Result<void> BtfNameIndex::index() {
  btf_header h{};
  if (size_ < sizeof(h)) return makeError("kernel BTF is truncated");
  std::memcpy(&h, data_, sizeof(h));
  if (h.magic != BTF_MAGIC || h.hdr_len > size_ ||
      uint64_t{h.hdr_len} + h.type_off + h.type_len > size_ ||
      uint64_t{h.hdr_len} + h.str_off + h.str_len > size_) {
    return makeError("kernel BTF has an unexpected header");
  }
  types_ = data_ + h.hdr_len + h.type_off;
  strings_ = data_ + h.hdr_len + h.str_off;
  stringsSize_ = h.str_len;
  typeOffsets_.reserve(h.type_len / 24);
  for (uint32_t off = 0; off + sizeof(btf_type) <= h.type_len;) {
    typeOffsets_.push_back(off);
    btf_type t{};
    std::memcpy(&t, types_ + off, sizeof(t));
    off += static_cast<uint32_t>(sizeof(btf_type) + trailingBytes(t));
  }
  return {};
}

std::string_view BtfNameIndex::stringAt(uint32_t offset) const {
  if (offset >= stringsSize_) return {};
  return std::string_view(strings_ + offset, ::strnlen(strings_ + offset, stringsSize_ - offset));
}

// Where the NUL-terminated `s` starts in the string section: names are
// deduplicated there, so one offset stands for every use of the name.
std::optional<uint32_t> BtfNameIndex::stringOffset(std::string_view s) const {
  const char* end = strings_ + stringsSize_;
  for (const char* at = strings_; at < end;) {
    auto* found =
        static_cast<const char*>(::memmem(at, static_cast<size_t>(end - at), s.data(), s.size()));
    if (!found) return std::nullopt;
    const bool starts = found == strings_ || found[-1] == '\0';
    const bool ends = found + s.size() < end && found[s.size()] == '\0';
    if (starts && ends) return static_cast<uint32_t>(found - strings_);
    at = found + 1;
  }
  return std::nullopt;
}

std::optional<uint32_t> BtfNameIndex::find(std::string_view name, BtfKind kind) const {
  const int wanted = btfKindNumber(kind);
  std::optional<uint32_t> nameOffset = stringOffset(name);
  if (!nameOffset || kind == BtfKind::Unknown) return std::nullopt;
  for (size_t i = 0; i < typeOffsets_.size(); i++) {
    btf_type t{};
    std::memcpy(&t, types_ + typeOffsets_[i], sizeof(t));
    if (t.name_off == *nameOffset && static_cast<int>(BTF_INFO_KIND(t.info)) == wanted) {
      return static_cast<uint32_t>(i + 1);
    }
  }
  return std::nullopt;
}

std::string_view BtfNameIndex::nameOf(uint32_t id) const {
  if (id == 0 || id > typeOffsets_.size()) return {};
  btf_type t{};
  std::memcpy(&t, types_ + typeOffsets_[id - 1], sizeof(t));
  return stringAt(t.name_off);
}

std::optional<uint32_t> BtfNameIndex::memberBitOffset(uint32_t id, std::string_view member) const {
  if (id == 0 || id > typeOffsets_.size()) return std::nullopt;
  const char* at = types_ + typeOffsets_[id - 1];
  btf_type t{};
  std::memcpy(&t, at, sizeof(t));
  const uint32_t kind = BTF_INFO_KIND(t.info);
  if (kind != BTF_KIND_STRUCT && kind != BTF_KIND_UNION) return std::nullopt;
  for (uint32_t i = 0; i < BTF_INFO_VLEN(t.info); i++) {
    btf_member m{};
    std::memcpy(&m, at + sizeof(t) + i * sizeof(m), sizeof(m));
    if (m.name_off != 0 && stringAt(m.name_off) == member) {
      // With kflag set, the high 8 bits hold a bit field's size.
      return BTF_INFO_KFLAG(t.info) ? BTF_MEMBER_BIT_OFFSET(m.offset) : m.offset;
    }
  }
  return std::nullopt;
}

BtfNameIndex::BtfNameIndex(BtfNameIndex&& other) noexcept { *this = std::move(other); }

BtfNameIndex& BtfNameIndex::operator=(BtfNameIndex&& other) noexcept {
  if (this == &other) return *this;
  if (mapped_) ::munmap(const_cast<char*>(data_), size_);
  data_ = std::exchange(other.data_, nullptr);
  size_ = other.size_;
  mapped_ = std::exchange(other.mapped_, false);
  copy_ = std::move(other.copy_);  // its buffer, and so data_, stay put
  strings_ = other.strings_;
  stringsSize_ = other.stringsSize_;
  typeOffsets_ = std::move(other.typeOffsets_);
  types_ = other.types_;
  return *this;
}

BtfNameIndex::~BtfNameIndex() {
  if (mapped_) ::munmap(const_cast<char*>(data_), size_);
}

}  // namespace dtrace::bpf
