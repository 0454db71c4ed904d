#include "bpf/parsed_btf.h"

#include <bpf/btf.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

namespace dtrace::bpf {

namespace {

BtfKind kindOf(const struct btf_type* t) {
  switch (btf_kind(t)) {
    case BTF_KIND_INT:
      return BtfKind::Int;
    case BTF_KIND_PTR:
      return BtfKind::Ptr;
    case BTF_KIND_ARRAY:
      return BtfKind::Array;
    case BTF_KIND_STRUCT:
      return BtfKind::Struct;
    case BTF_KIND_UNION:
      return BtfKind::Union;
    case BTF_KIND_ENUM:
      return BtfKind::Enum;
    case BTF_KIND_ENUM64:
      return BtfKind::Enum64;
    case BTF_KIND_FWD:
      return BtfKind::Fwd;
    case BTF_KIND_TYPEDEF:
      return BtfKind::Typedef;
    case BTF_KIND_VOLATILE:
      return BtfKind::Volatile;
    case BTF_KIND_CONST:
      return BtfKind::Const;
    case BTF_KIND_RESTRICT:
      return BtfKind::Restrict;
    case BTF_KIND_FUNC_PROTO:
      return BtfKind::FuncProto;
    case BTF_KIND_FUNC:
      return BtfKind::Func;
    case BTF_KIND_FLOAT:
      return BtfKind::Float;
    case BTF_KIND_TYPE_TAG:
      return BtfKind::TypeTag;
    default:
      return BtfKind::Unknown;
  }
}

std::string_view nameAt(const struct btf* btf, uint32_t offset) {
  const char* name = btf__name_by_offset(btf, offset);
  return name ? std::string_view(name) : std::string_view();
}

}  // namespace

int btfKindNumber(BtfKind kind) {
  switch (kind) {
    case BtfKind::Int:
      return BTF_KIND_INT;
    case BtfKind::Ptr:
      return BTF_KIND_PTR;
    case BtfKind::Array:
      return BTF_KIND_ARRAY;
    case BtfKind::Struct:
      return BTF_KIND_STRUCT;
    case BtfKind::Union:
      return BTF_KIND_UNION;
    case BtfKind::Enum:
      return BTF_KIND_ENUM;
    case BtfKind::Enum64:
      return BTF_KIND_ENUM64;
    case BtfKind::Fwd:
      return BTF_KIND_FWD;
    case BtfKind::Typedef:
      return BTF_KIND_TYPEDEF;
    case BtfKind::Volatile:
      return BTF_KIND_VOLATILE;
    case BtfKind::Const:
      return BTF_KIND_CONST;
    case BtfKind::Restrict:
      return BTF_KIND_RESTRICT;
    case BtfKind::FuncProto:
      return BTF_KIND_FUNC_PROTO;
    case BtfKind::Func:
      return BTF_KIND_FUNC;
    case BtfKind::Float:
      return BTF_KIND_FLOAT;
    case BtfKind::TypeTag:
      return BTF_KIND_TYPE_TAG;
    case BtfKind::Unknown:
      break;
  }
  return BTF_KIND_UNKN;
}

Result<Btf> Btf::loadVmlinux() {
  struct btf* btf = btf__load_vmlinux_btf();
  if (!btf) return makeError(std::strerror(errno));
  return Btf(btf);
}

Btf::Btf(Btf&& other) noexcept : btf_(std::exchange(other.btf_, nullptr)) {}

Btf& Btf::operator=(Btf&& other) noexcept {
  if (this != &other) {
    if (btf_) btf__free(btf_);
    btf_ = std::exchange(other.btf_, nullptr);
  }
  return *this;
}

Btf::~Btf() {
  if (btf_) btf__free(btf_);
}

uint32_t Btf::typeCount() const { return btf__type_cnt(btf_); }

std::optional<BtfType> Btf::type(uint32_t id) const {
  const struct btf_type* t = btf__type_by_id(btf_, id);
  if (!t) return std::nullopt;
  BtfType out;
  out.id = id;
  out.kind = kindOf(t);
  out.name = nameAt(btf_, t->name_off);
  // size and type share their place in the record: each kind has one.
  out.size = t->size;
  out.type = t->type;
  out.kflag = btf_kflag(t);
  out.vlen = btf_vlen(t);
  if (out.kind == BtfKind::Int) out.isSigned = (btf_int_encoding(t) & BTF_INT_SIGNED) != 0;
  if (out.kind == BtfKind::Array) {
    out.elementType = btf_array(t)->type;
    out.elementCount = btf_array(t)->nelems;
  }
  return out;
}

std::optional<uint32_t> Btf::find(const char* name, BtfKind kind) const {
  const int id = btf__find_by_name_kind(btf_, name, btfKindNumber(kind));
  if (id < 0) return std::nullopt;
  return static_cast<uint32_t>(id);
}

std::vector<BtfMember> Btf::members(const BtfType& composite) const {
  std::vector<BtfMember> out;
  const struct btf_type* t = btf__type_by_id(btf_, composite.id);
  if (!t || !btf_is_composite(t)) return out;
  const struct btf_member* m = btf_members(t);
  for (uint32_t i = 0; i < btf_vlen(t); i++, m++) {
    out.push_back({nameAt(btf_, m->name_off), m->type, btf_member_bit_offset(t, i),
                   btf_member_bitfield_size(t, i)});
  }
  return out;
}

std::vector<BtfEnumerator> Btf::enumerators(const BtfType& enumeration) const {
  std::vector<BtfEnumerator> out;
  const struct btf_type* t = btf__type_by_id(btf_, enumeration.id);
  if (!t) return out;
  if (btf_is_enum64(t)) {
    const struct btf_enum64* e = btf_enum64(t);
    for (int i = 0; i < btf_vlen(t); i++, e++) {
      out.push_back({nameAt(btf_, e->name_off), static_cast<int64_t>(btf_enum64_value(e))});
    }
    return out;
  }
  if (!btf_is_enum(t)) return out;
  const struct btf_enum* e = btf_enum(t);
  for (int i = 0; i < btf_vlen(t); i++, e++) {
    const int64_t value = btf_kflag(t) ? static_cast<int64_t>(e->val)
                                       : static_cast<int64_t>(static_cast<uint32_t>(e->val));
    out.push_back({nameAt(btf_, e->name_off), value});
  }
  return out;
}

std::vector<BtfParam> Btf::params(const BtfType& prototype) const {
  std::vector<BtfParam> out;
  const struct btf_type* t = btf__type_by_id(btf_, prototype.id);
  if (!t || !btf_is_func_proto(t)) return out;
  const struct btf_param* p = btf_params(t);
  for (int i = 0; i < btf_vlen(t); i++, p++) out.push_back({nameAt(btf_, p->name_off), p->type});
  return out;
}

}  // namespace dtrace::bpf
