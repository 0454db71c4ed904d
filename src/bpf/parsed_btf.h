// Parsed BTF (the kernel's type information), read through libbpf: the
// lookups the type importers of types/ make, with the types, members,
// enumerators and parameters as plain values so that no libbpf type
// leaves the bpf stage.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "util/result.h"

struct btf;

namespace dtrace::bpf {

enum class BtfKind {
  Unknown,
  Int,
  Ptr,
  Array,
  Struct,
  Union,
  Enum,
  Enum64,
  Fwd,
  Typedef,
  Volatile,
  Const,
  Restrict,
  FuncProto,
  Func,  // a function (kernel functions, kfuncs)
  Float,
  TypeTag,
};

// The kernel's number for a kind (BTF_KIND_*); BTF_KIND_UNKN for Unknown.
int btfKindNumber(BtfKind kind);

// One type. `name` is empty when the type has none; it points into the
// Btf and lives as long as it.
struct BtfType {
  uint32_t id = 0;
  BtfKind kind = BtfKind::Unknown;
  std::string_view name;
  uint32_t size = 0;  // integers, floats, structs, unions, enums
  // The type this one refers to: the target of a pointer, typedef or
  // qualifier, a function prototype's return type.
  uint32_t type = 0;
  // Enums: signed values; forward declarations: of a union.
  bool kflag = false;
  uint32_t vlen = 0;          // members, enumerators or parameters
  bool isSigned = false;      // integers
  uint32_t elementType = 0;   // arrays
  uint32_t elementCount = 0;  // arrays

  // const, volatile, restrict and type tags (not typedefs).
  bool isQualifier() const {
    return kind == BtfKind::Const || kind == BtfKind::Volatile || kind == BtfKind::Restrict ||
           kind == BtfKind::TypeTag;
  }
  bool isComposite() const { return kind == BtfKind::Struct || kind == BtfKind::Union; }
};

// A struct or union member; bit fields have a non-zero bitSize.
struct BtfMember {
  std::string_view name;  // empty for an anonymous struct or union member
  uint32_t type = 0;
  uint32_t bitOffset = 0;
  uint32_t bitSize = 0;
};

struct BtfEnumerator {
  std::string_view name;
  int64_t value = 0;
};

struct BtfParam {
  std::string_view name;
  uint32_t type = 0;
};

class Btf {
 public:
  // The running kernel's BTF (/sys/kernel/btf/vmlinux); the error names
  // errno's text.
  static Result<Btf> loadVmlinux();

  Btf(Btf&& other) noexcept;
  Btf& operator=(Btf&& other) noexcept;
  Btf(const Btf&) = delete;
  Btf& operator=(const Btf&) = delete;
  ~Btf();

  // Type ids run from 1 to typeCount() - 1 (0 is void).
  uint32_t typeCount() const;
  std::optional<BtfType> type(uint32_t id) const;
  // The id of the type of that name and kind.
  std::optional<uint32_t> find(const char* name, BtfKind kind) const;

  std::vector<BtfMember> members(const BtfType& composite) const;
  // An Enum's values read as unsigned 32-bit numbers unless it is signed
  // (kflag).
  std::vector<BtfEnumerator> enumerators(const BtfType& enumeration) const;
  std::vector<BtfParam> params(const BtfType& prototype) const;

 private:
  explicit Btf(struct btf* btf) : btf_(btf) {}

  struct btf* btf_ = nullptr;
};

}  // namespace dtrace::bpf
