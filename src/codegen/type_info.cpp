#include "codegen/type_info.h"

namespace dtrace::codegen {
namespace {

using sema::Type;

// Anonymous structs and unions print as just "struct" or "union"; the
// script's are tagged "<anonN>", BTF's have no tag.
std::string shownName(const Type* t) {
  if (!t->isStruct()) return t->name;
  const char* word = t->kind == Type::Kind::Union ? "union" : "struct";
  if (t->name.empty() || t->name.find("<anon") != std::string::npos || t->name.ends_with(' ')) {
    return word;
  }
  return t->name;
}

// "__u8 [4]" names an array of "__u8".
std::string elementSpelling(const std::string& spelled) {
  const size_t bracket = spelled.rfind(" [");
  return bracket == std::string::npos ? "" : spelled.substr(0, bracket);
}

ir::TypeKind kindOf(const Type* t) {
  switch (t->kind) {
    case Type::Kind::Integer:
      return ir::TypeKind::Integer;
    case Type::Kind::Enum:
      return ir::TypeKind::Enum;
    case Type::Kind::Float:
      return ir::TypeKind::Float;
    case Type::Kind::Pointer:
      return ir::TypeKind::Pointer;
    case Type::Kind::String:
      return ir::TypeKind::String;
    case Type::Kind::Array:
      return ir::TypeKind::Array;
    case Type::Kind::Struct:
      return ir::TypeKind::Struct;
    case Type::Kind::Union:
      return ir::TypeKind::Union;
    default:
      return ir::TypeKind::Opaque;
  }
}

}  // namespace

uint32_t TypeInfoBuilder::describe(const Type* t, const std::string& spelled) {
  const auto key = std::make_pair(t, spelled);
  if (auto it = known_.find(key); it != known_.end()) return it->second;

  ir::TypeInfo info;
  info.kind = kindOf(t);
  info.name = spelled.empty() ? shownName(t) : spelled;
  info.size = t->size;
  info.isSigned = t->isSigned;
  // A char shows as 'c'; other bytes (unsigned char, int8_t, __u8) as numbers.
  info.isChar = t->kind == Type::Kind::Integer && info.name == "char";
  switch (info.kind) {
    case ir::TypeKind::Array:
      info.element = describe(t->target, elementSpelling(spelled));
      info.count = t->count;
      break;
    case ir::TypeKind::Struct:
    case ir::TypeKind::Union:
      for (const sema::Member& m : t->members) {
        info.members.push_back({m.name, describe(m.type, m.typeName), m.bitOffset, m.bitWidth});
      }
      break;
    case ir::TypeKind::Enum:
      for (const sema::Enumerator& e : t->enumerators)
        info.enumerators.push_back({e.name, e.value});
      break;
    default:
      break;
  }
  const auto index = static_cast<uint32_t>(types_.size());
  types_.push_back(std::move(info));
  known_.emplace(key, index);
  return index;
}

}  // namespace dtrace::codegen
