#include "types/btf_types.h"

#include <bpf/btf.h>

#include <string>

#include "types/kernel_btf.h"

namespace dtrace::types {

using sema::Type;

namespace {

struct btf* kernelBtf() {
  auto loaded = KernelBtf::instance().load();
  return loaded ? *loaded : nullptr;
}

std::string nameOf(struct btf* btf, const btf_type* t) {
  const char* n = btf__name_by_offset(btf, t->name_off);
  return n ? n : "";
}

std::vector<sema::Enumerator> enumeratorsOf(struct btf* btf, const btf_type* t) {
  std::vector<sema::Enumerator> out;
  if (btf_kind(t) == BTF_KIND_ENUM64) {
    const struct btf_enum64* e = btf_enum64(t);
    for (int i = 0; i < btf_vlen(t); i++, e++) {
      out.push_back({btf__name_by_offset(btf, e->name_off),
                     static_cast<int64_t>(btf_enum64_value(e))});
    }
    return out;
  }
  const struct btf_enum* e = btf_enum(t);
  for (int i = 0; i < btf_vlen(t); i++, e++) {
    const int64_t value = btf_kflag(t) ? static_cast<int64_t>(e->val)
                                       : static_cast<int64_t>(static_cast<uint32_t>(e->val));
    out.push_back({btf__name_by_offset(btf, e->name_off), value});
  }
  return out;
}

// A member's type as BTF spells it when a typedef names it ("__u8",
// "u64 *", "__be32 [4]"); empty otherwise.
std::string spelledTypeName(struct btf* btf, uint32_t id) {
  const btf_type* t = btf__type_by_id(btf, id);
  if (!t) return "";
  switch (btf_kind(t)) {
    case BTF_KIND_TYPEDEF:
      return nameOf(btf, t);
    case BTF_KIND_CONST:
    case BTF_KIND_VOLATILE:
    case BTF_KIND_RESTRICT:
    case BTF_KIND_TYPE_TAG:
      return spelledTypeName(btf, t->type);
    case BTF_KIND_PTR: {
      const std::string target = spelledTypeName(btf, t->type);
      return target.empty() ? "" : target + (target.ends_with('*') ? "*" : " *");
    }
    case BTF_KIND_ARRAY: {
      const struct btf_array* a = btf_array(t);
      const std::string element = spelledTypeName(btf, a->type);
      return element.empty() ? "" : element + " [" + std::to_string(a->nelems) + "]";
    }
    default:
      return "";
  }
}

}  // namespace

const Type* BtfTypeSource::find(sema::TypeTable& table, std::string_view name) {
  struct btf* btf = kernelBtf();
  if (!btf) return nullptr;
  struct Prefix {
    const char* word;
    int kind;
  };
  static const Prefix kTagged[] = {
      {"struct ", BTF_KIND_STRUCT}, {"union ", BTF_KIND_UNION}, {"enum ", BTF_KIND_ENUM}};
  for (const Prefix& p : kTagged) {
    if (!name.starts_with(p.word)) continue;
    const std::string tag(name.substr(std::string_view(p.word).size()));
    int id = btf__find_by_name_kind(btf, tag.c_str(), p.kind);
    if (id < 0 && p.kind == BTF_KIND_ENUM) id = btf__find_by_name_kind(btf, tag.c_str(), BTF_KIND_ENUM64);
    return id < 0 ? nullptr : import(table, static_cast<uint32_t>(id));
  }
  const std::string typedefName(name);
  int id = btf__find_by_name_kind(btf, typedefName.c_str(), BTF_KIND_TYPEDEF);
  if (id < 0) return nullptr;
  const Type* t = import(table, static_cast<uint32_t>(id));
  if (t) table.addTypedef(typedefName, t);
  return t;
}

const Type* BtfTypeSource::import(sema::TypeTable& table, uint32_t id) {
  if (auto it = imported_.find(id); it != imported_.end()) return it->second;
  struct btf* btf = kernelBtf();
  if (id == 0 || !btf) return table.voidType();
  const btf_type* t = btf__type_by_id(btf, id);
  if (!t) return nullptr;
  const Type* result = nullptr;
  switch (btf_kind(t)) {
    case BTF_KIND_INT: {
      const uint32_t encoding = btf_int_encoding(t);
      const std::string n = nameOf(btf, t);
      result = n == "char" ? table.charType()
                           : table.integer(t->size, (encoding & BTF_INT_SIGNED) != 0);
      break;
    }
    case BTF_KIND_FLOAT:
      result = table.lookup(t->size == 4 ? "float" : t->size == 8 ? "double" : "long double");
      break;
    case BTF_KIND_PTR: {
      // Record a placeholder first: a pointer may lead back to this type.
      const Type* target = import(table, t->type);
      result = target ? table.pointerTo(target) : nullptr;
      break;
    }
    case BTF_KIND_ARRAY: {
      const struct btf_array* a = btf_array(t);
      const Type* element = import(table, a->type);
      result = element ? table.arrayOf(element, a->nelems) : nullptr;
      break;
    }
    case BTF_KIND_STRUCT:
    case BTF_KIND_UNION: {
      // Members are read only when the script uses one (complete()).
      const bool isUnion = btf_kind(t) == BTF_KIND_UNION;
      const std::string tag = nameOf(btf, t);
      Type shell;
      shell.kind = isUnion ? Type::Kind::Union : Type::Kind::Struct;
      shell.name = tag.empty() ? "" : (isUnion ? "union " : "struct ") + tag;
      shell.size = t->size;
      shell.align = 8;
      shell.complete = false;
      shell.typeId = id;
      result = table.newType(std::move(shell));
      break;
    }
    case BTF_KIND_ENUM:
    case BTF_KIND_ENUM64: {
      const std::string tag = nameOf(btf, t);
      Type e;
      e.kind = Type::Kind::Enum;
      e.name = tag.empty() ? "enum" : "enum " + tag;
      e.size = t->size;
      e.isSigned = btf_kflag(t);
      e.rank = t->size > 4 ? 4 : 3;
      e.target = table.integer(t->size, btf_kflag(t));
      e.enumerators = enumeratorsOf(btf, t);
      result = table.newType(std::move(e));
      break;
    }
    case BTF_KIND_FUNC_PROTO: {
      const Type* ret = import(table, t->type);
      result = ret ? table.functionType(ret) : nullptr;
      break;
    }
    case BTF_KIND_FWD: {
      // A declaration: the definition is elsewhere in the kernel's BTF.
      const bool isUnion = btf_kflag(t);
      int full = btf__find_by_name_kind(btf, nameOf(btf, t).c_str(),
                                        isUnion ? BTF_KIND_UNION : BTF_KIND_STRUCT);
      if (full > 0) {
        result = import(table, static_cast<uint32_t>(full));
        break;
      }
      Type incomplete;
      incomplete.kind = isUnion ? Type::Kind::Union : Type::Kind::Struct;
      incomplete.name = (isUnion ? "union " : "struct ") + nameOf(btf, t);
      incomplete.complete = false;
      result = table.newType(std::move(incomplete));
      break;
    }
    default:  // typedef, const, volatile, restrict, type tags: the type they qualify
      result = import(table, t->type);
      break;
  }
  imported_[id] = result;
  return result;
}

void BtfTypeSource::complete(sema::TypeTable& table, Type& type) {
  struct btf* btf = kernelBtf();
  type.complete = true;
  if (!btf) return;
  const btf_type* t = btf__type_by_id(btf, type.typeId);
  const btf_member* m = btf_members(t);
  for (int i = 0; i < btf_vlen(t); i++, m++) {
    const Type* memberType = import(table, m->type);
    if (!memberType) continue;
    const uint32_t bitOffset = btf_member_bit_offset(t, i);
    const uint32_t bitWidth = btf_member_bitfield_size(t, i);
    const std::string name = btf__name_by_offset(btf, m->name_off);
    if (name.empty() && memberType->isStruct()) {
      // C11 anonymous struct/union: its members are the parent's.
      table.complete(memberType);
      for (sema::Member inner : memberType->members) {
        inner.offset += bitOffset / 8;
        inner.bitOffset += bitOffset;
        type.members.push_back(std::move(inner));
      }
      continue;
    }
    type.members.push_back(sema::Member{name, memberType, bitOffset / 8, bitOffset, bitWidth,
                                        spelledTypeName(btf, m->type)});
  }
}

}  // namespace dtrace::types
