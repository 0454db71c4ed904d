// Types written in a D program: C keyword combinations, typedef names,
// struct/union/enum definitions and uses (the kernel's when the script
// defines none by that tag), pointers, arrays and function declarators.
#include "sema/checker.h"

namespace dtrace::sema {

namespace {

uint32_t alignUp(uint32_t v, uint32_t align) { return align ? (v + align - 1) / align * align : v; }

// A member declared through a typedef keeps the typedef's name for print():
// t's name with the typedef's underlying type replaced by the typedef.
std::string spelledTypeName(TypeTable& types, const ast::DeclSpec& spec, const Type* t) {
  if (spec.typedefName.empty()) return "";
  const Type* base = types.lookup(spec.typedefName);
  if (!base || !t->name.starts_with(base->name)) return "";
  std::string name = spec.typedefName.substr(spec.typedefName.find('`') + 1);
  std::string rest = t->name.substr(base->name.size());
  if (rest.starts_with('*')) name += ' ';  // "char *" + "*" was "char **"
  return name + rest;
}

}  // namespace

// dt_decl_check: the attributes a base type does not take.
bool Checker::checkTypeAttributes(const ast::DeclSpec& spec) {
  bool sized = false, longs = false, sign = false, isChar = false, isVoid = false;
  for (const auto& w : spec.basicWords) {
    sized |= w == "short" || w == "long";
    longs |= w == "long";
    sign |= w == "signed" || w == "unsigned";
    isChar |= w == "char";
    isVoid |= w == "void";
  }
  if (!sized && !sign) return true;
  if (isChar && sized) {
    return error("D_DECL_CHARATTR", spec.loc,
                 "invalid type declaration: short and long may not be used with char type");
  }
  if (isVoid) {
    return error("D_DECL_VOIDATTR", spec.loc,
                 "invalid type declaration: attributes may not be used with void type");
  }
  const bool named = !spec.typedefName.empty() || spec.structSpec || spec.enumSpec;
  if (named && sign) {
    return error("D_DECL_SIGNINT", spec.loc,
                 "invalid type declaration: signed and unsigned may only be used with integer "
                 "type");
  }
  if (named && longs) {
    return error("D_DECL_LONGINT", spec.loc,
                 "invalid type declaration: long and long long may only be used with integer or "
                 "floating-point type");
  }
  return true;
}

const Type* Checker::basicType(const ast::DeclSpec& spec) {
  // Canonical keyword order: signedness, then size words, then the base.
  std::string sign, size, basic;
  int longs = 0;
  bool combo = false;
  for (const auto& w : spec.basicWords) {
    if (w == "signed" || w == "unsigned") {
      combo |= !sign.empty();
      sign = w;
    } else if (w == "long") {
      longs++;
    } else if (w == "short") {
      combo |= !size.empty();
      size = "short";
    } else {
      combo |= !basic.empty();
      basic = w;
    }
  }
  if (combo || (!size.empty() && longs > 0)) {
    error("D_DECL_COMBO", spec.loc, "invalid type combination");
    return nullptr;
  }
  if (longs == 1) size = "long";
  if (longs == 2) size = "long long";
  if (longs > 2) {
    error("D_DECL_COMBO", spec.loc, "invalid type combination");
    return nullptr;
  }
  std::string name;
  for (const std::string& part : {sign, size, basic}) {
    if (part.empty()) continue;
    if (!name.empty()) name += ' ';
    name += part;
  }
  if (name.empty()) name = "int";  // `unsigned x;`-style implicit int
  const Type* t = types_.lookup(name);
  if (!t) error("D_DECL_COMBO", spec.loc, "invalid type combination: " + name);
  return t;
}

// `struct s { ... }` lays out its members as C does: each at the next
// multiple of its alignment, bit-fields packed into their storage units.
const Type* Checker::structType(const ast::StructSpec& spec) {
  const Type::Kind kind = spec.isUnion ? Type::Kind::Union : Type::Kind::Struct;
  static int anonymous = 0;
  const std::string tag = spec.tag.empty() ? "<anon" + std::to_string(++anonymous) + ">" : spec.tag;
  Type* t = types_.tagged(kind, tag, spec.hasBody);
  if (!spec.hasBody) return t;
  if (auto it = definedBodies_.find(&spec); it != definedBodies_.end()) return it->second;
  definedBodies_[&spec] = t;
  if (t->complete && !t->members.empty()) {
    error("D_DECL_TYPERED", spec.loc, "type redeclared: " + t->name);
    return nullptr;
  }
  uint32_t offset = 0, size = 0, align = 1, bitCursor = 0;
  for (const ast::StructMember& m : spec.members) {
    const Type* mt = resolveDeclared(m.spec, m.declarator);
    if (!mt) return nullptr;
    if (mt->isVoid() || mt->kind == Type::Kind::Function) {  // members of no size
      error("D_DECL_VOIDOBJ", m.loc, "cannot have void member: " + m.declarator.name);
      return nullptr;
    }
    if (mt->isStruct() && !types_.complete(mt)->complete) {
      error("D_DECL_INCOMPLETE", m.loc,
            "incomplete struct/union/enum " + mt->name + ": " + m.declarator.name);
      return nullptr;
    }
    for (const Member& old : t->members) {
      if (!m.declarator.name.empty() && old.name == m.declarator.name) {  // unnamed bit-fields
        error("D_DECL_MEMBER", m.loc, "duplicate member name: " + m.declarator.name);  // ctf
        return nullptr;
      }
    }
    Member member{m.declarator.name, mt, 0, 0, 0, spelledTypeName(types_, m.spec, mt)};
    if (m.bitWidth) {
      // dt_decl_member's checks, in its order.
      if (!expr(*m.bitWidth) || !m.bitWidth->constValue || *m.bitWidth->constValue <= 0) {
        error("D_DECL_BFCONST", m.loc,
              "positive integral constant expression expected as bit-field size");
        return nullptr;
      }
      if (!mt->isInteger()) {
        error("D_DECL_BFTYPE", m.loc, "invalid type for bit-field: " + m.declarator.name);
        return nullptr;
      }
      if (*m.bitWidth->constValue > mt->size * 8) {
        error("D_DECL_BFSIZE", m.loc, "bit-field too big for type: " + m.declarator.name);
        return nullptr;
      }
      const uint32_t width = static_cast<uint32_t>(*m.bitWidth->constValue);
      uint32_t start = kind == Type::Kind::Union ? 0 : bitCursor;
      // A bit-field does not straddle a unit of its declared type.
      const uint32_t unitBits = mt->size * 8;
      if (start / unitBits != (start + width - 1) / unitBits) start = alignUp(start, unitBits);
      // The member is the storage unit holding the bits.
      member.offset = start / unitBits * mt->size;
      member.bitOffset = start;
      member.bitWidth = width;
      bitCursor = start + width;
      offset = alignUp(bitCursor, 8) / 8;
      align = std::max(align, mt->align);
    } else {
      const uint32_t at = kind == Type::Kind::Union
                              ? 0
                              : alignUp(std::max(offset, alignUp(bitCursor, 8) / 8), mt->align);
      member.offset = at;
      member.bitOffset = at * 8;
      offset = at + mt->size;
      bitCursor = offset * 8;
      align = std::max(align, mt->align);
    }
    size =
        std::max(size, kind == Type::Kind::Union ? std::max(mt->size, member.offset + 1) : offset);
    t->members.push_back(std::move(member));
  }
  t->size = alignUp(size, align);
  t->align = align;
  t->complete = true;
  return t;
}

const Type* Checker::enumType(const ast::EnumSpec& spec) {
  static int anonymous = 0;
  const std::string tag = spec.tag.empty() ? "<anon" + std::to_string(++anonymous) + ">" : spec.tag;
  Type* t = types_.tagged(Type::Kind::Enum, tag, spec.hasBody);
  if (!spec.hasBody) return t;
  if (auto it = definedBodies_.find(&spec); it != definedBodies_.end()) return it->second;
  definedBodies_[&spec] = t;
  if (t->complete) {
    error("D_DECL_TYPERED", spec.loc, "type redeclared: " + t->name);
    return nullptr;
  }
  t->target = types_.intType();
  int64_t next = 0;
  for (const ast::EnumMember& m : spec.members) {
    if (types_.findEnumerator(m.name) || symbols_.findGlobal(m.name)) {
      error("D_DECL_IDRED", m.loc, "identifier redeclared: " + m.name);
      return nullptr;
    }
    if (m.value) {
      if (!expr(*m.value)) return nullptr;
      if (!m.value->constValue || !m.value->type->isInteger()) {
        error("D_DECL_ENCONST", m.loc,
              "enumerator '" + m.name + "' must be assigned an integral constant expression");
        return nullptr;
      }
      next = *m.value->constValue;
    }
    if (next < INT32_MIN || next > INT32_MAX) {
      error("D_DECL_ENOFLOW", m.loc,
            "enumerator '" + m.name + "' value overflows INT_MAX (" + std::to_string(INT32_MAX) +
                ")");
      return nullptr;
    }
    t->enumerators.push_back({m.name, next});
    types_.addEnumerator(m.name, next, t);
    next++;
  }
  t->complete = true;
  return t;
}

const Type* Checker::resolveDeclared(const ast::DeclSpec& spec, const ast::Declarator& d) {
  if (!checkTypeAttributes(spec)) return nullptr;
  const Type* base = nullptr;
  if (!spec.typedefName.empty()) {
    base = types_.lookup(spec.typedefName);
    if (!base) {
      error("D_TYPE_ERR", spec.loc, "failed to resolve type " + spec.typedefName);
      return nullptr;
    }
  } else if (spec.structSpec) {
    base = structType(*spec.structSpec);
  } else if (spec.enumSpec) {
    base = enumType(*spec.enumSpec);
  } else {
    base = basicType(spec);
  }
  if (!base) return nullptr;
  const Type* t = base;
  for (const auto& step : d.steps) {
    switch (step.kind) {
      case ast::DeclaratorStep::Kind::Pointer:
        t = types_.pointerTo(t);
        break;
      case ast::DeclaratorStep::Kind::Array:
        if (!step.arrayKeys.empty()) {
          error("D_DECL_ARRNULL", d.loc,
                "array declaration requires array dimension or tuple signature: " + d.name);
          return nullptr;
        }
        if (t->isVoid()) {
          error("D_DECL_VOIDOBJ", d.loc, "cannot declare array of void");
          return nullptr;
        }
        if (!step.arraySize) {  // `[]`: no elements (an extern or a last member)
          t = types_.arrayOf(t, 0);
          break;
        }
        if (!expr(*step.arraySize) || !step.arraySize->constValue ||
            *step.arraySize->constValue <= 0) {
          error("D_DECL_ARRSUB", d.loc,
                "positive integral constant expression or tuple "
                "signature expected as array declaration subscript");
          return nullptr;
        }
        // dt_decl_array refuses a dimension past UINT_MAX; a size past it
        // could not be laid out either.
        if (const uint64_t n = static_cast<uint64_t>(*step.arraySize->constValue);
            n > UINT32_MAX || n * std::max<uint64_t>(t->size, 1) > UINT32_MAX) {
          error("D_DECL_ARRBIG", d.loc, "array dimension too big");
          return nullptr;
        }
        t = types_.arrayOf(t, static_cast<uint32_t>(*step.arraySize->constValue));
        break;
      case ast::DeclaratorStep::Kind::Function:
        for (const auto& param : step.params) {
          if (!resolveDeclared(param->spec, param->declarator)) return nullptr;
        }
        t = types_.functionType(t);
        break;
    }
  }
  return t;
}

const Type* Checker::resolveTypeName(const ast::TypeName& tn) {
  return resolveDeclared(tn.spec, tn.declarator);
}

// offsetof(type, member), where member may be a path (a.b).
const Type* Checker::offsetOf(ast::Expr& e) {
  const Type* t = resolveTypeName(*e.typeName);
  if (!t) return nullptr;
  uint64_t offset = 0;
  size_t start = 0;
  for (;;) {
    const size_t dot = e.text.find('.', start);
    const std::string name = e.text.substr(start, dot - start);
    if (!t->isStruct()) {
      error("D_OFFSETOF_TYPE", e.loc, "offsetof operand must be a struct or union type");
      return nullptr;
    }
    const Member* m = types_.findMember(t, name);
    if (!m) {
      error("D_UNKNOWN", e.loc,
            "failed to determine offset of " + name + ": Member name not found");
      return nullptr;
    }
    if (m->bitWidth) {
      error("D_OFFSETOF_BITFIELD", e.loc, "cannot take offset of a bit-field: " + name);
      return nullptr;
    }
    offset += m->offset;
    t = m->type;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  e.constValue = static_cast<int64_t>(offset);
  return types_.lookup("size_t");
}

}  // namespace dtrace::sema
