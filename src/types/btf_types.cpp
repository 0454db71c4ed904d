#include "types/btf_types.h"

#include <string>

#include "types/kernel_btf.h"

namespace dtrace::types {

using bpf::Btf;
using bpf::BtfKind;
using bpf::BtfType;
using sema::Type;

namespace {

const Btf* kernelBtf() {
  auto loaded = KernelBtf::instance().load();
  return loaded ? *loaded : nullptr;
}

std::vector<sema::Enumerator> enumeratorsOf(const Btf& btf, const BtfType& t) {
  std::vector<sema::Enumerator> out;
  for (const bpf::BtfEnumerator& e : btf.enumerators(t))
    out.push_back({std::string(e.name), e.value});
  return out;
}

// A member's type as BTF spells it when a typedef names it ("__u8",
// "u64 *", "__be32 [4]"); empty otherwise.
std::string spelledTypeName(const Btf& btf, uint32_t id) {
  const std::optional<BtfType> t = btf.type(id);
  if (!t) return "";
  switch (t->kind) {
    case BtfKind::Typedef:
      return std::string(t->name);
    case BtfKind::Const:
    case BtfKind::Volatile:
    case BtfKind::Restrict:
    case BtfKind::TypeTag:
      return spelledTypeName(btf, t->type);
    case BtfKind::Ptr: {
      const std::string target = spelledTypeName(btf, t->type);
      return target.empty() ? "" : target + (target.ends_with('*') ? "*" : " *");
    }
    case BtfKind::Array: {
      const std::string element = spelledTypeName(btf, t->elementType);
      return element.empty() ? "" : element + " [" + std::to_string(t->elementCount) + "]";
    }
    default:
      return "";
  }
}

}  // namespace

const Type* BtfTypeSource::find(sema::TypeTable& table, std::string_view name) {
  const Btf* btf = kernelBtf();
  if (!btf) return nullptr;
  struct Prefix {
    const char* word;
    BtfKind kind;
  };
  static const Prefix kTagged[] = {
      {"struct ", BtfKind::Struct}, {"union ", BtfKind::Union}, {"enum ", BtfKind::Enum}};
  for (const Prefix& p : kTagged) {
    if (!name.starts_with(p.word)) continue;
    const std::string tag(name.substr(std::string_view(p.word).size()));
    std::optional<uint32_t> id = btf->find(tag.c_str(), p.kind);
    if (!id && p.kind == BtfKind::Enum) id = btf->find(tag.c_str(), BtfKind::Enum64);
    return id ? import(table, *id) : nullptr;
  }
  const std::string typedefName(name);
  const std::optional<uint32_t> id = btf->find(typedefName.c_str(), BtfKind::Typedef);
  if (!id) return nullptr;
  const Type* t = import(table, *id);
  if (t) table.addTypedef(typedefName, t);
  return t;
}

const Type* BtfTypeSource::import(sema::TypeTable& table, uint32_t id) {
  if (auto it = imported_.find(id); it != imported_.end()) return it->second;
  const Btf* btf = kernelBtf();
  if (id == 0 || !btf) return table.voidType();
  const std::optional<BtfType> t = btf->type(id);
  if (!t) return nullptr;
  const Type* result = nullptr;
  switch (t->kind) {
    case BtfKind::Int: {
      result = t->name == "char" ? table.charType() : table.integer(t->size, t->isSigned);
      break;
    }
    case BtfKind::Float:
      result = table.lookup(t->size == 4 ? "float" : t->size == 8 ? "double" : "long double");
      break;
    case BtfKind::Ptr: {
      // Record a placeholder first: a pointer may lead back to this type.
      const Type* target = import(table, t->type);
      result = target ? table.pointerTo(target) : nullptr;
      break;
    }
    case BtfKind::Array: {
      const Type* element = import(table, t->elementType);
      result = element ? table.arrayOf(element, t->elementCount) : nullptr;
      break;
    }
    case BtfKind::Struct:
    case BtfKind::Union: {
      // Members are read only when the script uses one (complete()).
      const bool isUnion = t->kind == BtfKind::Union;
      const std::string tag(t->name);
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
    case BtfKind::Enum:
    case BtfKind::Enum64: {
      const std::string tag(t->name);
      Type e;
      e.kind = Type::Kind::Enum;
      e.name = tag.empty() ? "enum" : "enum " + tag;
      e.size = t->size;
      e.isSigned = t->kflag;
      e.rank = t->size > 4 ? 4 : 3;
      e.target = table.integer(t->size, t->kflag);
      e.enumerators = enumeratorsOf(*btf, *t);
      result = table.newType(std::move(e));
      break;
    }
    case BtfKind::FuncProto: {
      const Type* ret = import(table, t->type);
      result = ret ? table.functionType(ret) : nullptr;
      break;
    }
    case BtfKind::Fwd: {
      // A declaration: the definition is elsewhere in the kernel's BTF.
      const bool isUnion = t->kflag;
      const std::string tag(t->name);
      const std::optional<uint32_t> full =
          btf->find(tag.c_str(), isUnion ? BtfKind::Union : BtfKind::Struct);
      if (full && *full > 0) {
        result = import(table, *full);
        break;
      }
      Type incomplete;
      incomplete.kind = isUnion ? Type::Kind::Union : Type::Kind::Struct;
      incomplete.name = (isUnion ? "union " : "struct ") + tag;
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
  const Btf* btf = kernelBtf();
  type.complete = true;
  if (!btf) return;
  const std::optional<BtfType> t = btf->type(type.typeId);
  if (!t) return;
  for (const bpf::BtfMember& m : btf->members(*t)) {
    const Type* memberType = import(table, m.type);
    if (!memberType) continue;
    const std::string name(m.name);
    if (name.empty() && memberType->isStruct()) {
      // C11 anonymous struct/union: its members are the parent's.
      table.complete(memberType);
      for (sema::Member inner : memberType->members) {
        inner.offset += m.bitOffset / 8;
        inner.bitOffset += m.bitOffset;
        type.members.push_back(std::move(inner));
      }
      continue;
    }
    type.members.push_back(sema::Member{name, memberType, m.bitOffset / 8, m.bitOffset, m.bitSize,
                                        spelledTypeName(*btf, m.type)});
  }
}

}  // namespace dtrace::types
