// Types written in a D program: C keyword combinations, typedef names,
// struct/union/enum definitions and uses (the kernel's when the script
// defines none by that tag), pointers, arrays and function declarators.
#include <algorithm>

#include "sema/checker.h"

namespace dtrace::sema {

namespace {

uint32_t alignUp(uint32_t v, uint32_t align) { return align ? (v + align - 1) / align * align : v; }

}  // namespace

std::string spelledTypeName(TypeTable& types, const ast::DeclSpec& spec, const Type* t) {
  if (spec.typedefName.empty()) return "";
  const Type* base = types.lookup(spec.typedefName);
  if (!base || !t->name.starts_with(base->name)) return "";
  std::string name = spec.typedefName.substr(spec.typedefName.find('`') + 1);
  std::string rest = t->name.substr(base->name.size());
  if (rest.starts_with('*')) name += ' ';  // "char *" + "*" was "char **"
  return name + rest;
}

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
  // A struct, union or enum is checked where DTrace takes it (after its tag).
  const SourceLoc at = spec.structSpec ? spec.structSpec->specLoc
                       : spec.enumSpec ? spec.enumSpec->specLoc
                                       : spec.loc;
  if (named && sign) {
    return error("D_DECL_SIGNINT", at,
                 "invalid type declaration: signed and unsigned may only be used with integer "
                 "type");
  }
  if (named && longs) {
    return error("D_DECL_LONGINT", at,
                 "invalid type declaration: long and long long may only be used with integer or "
                 "floating-point type");
  }
  return true;
}

// dt_decl_spec and dt_decl_attr: a second base type is an invalid
// combination and an attribute repeated too often is refused; words that
// do not combine into a type (short long, signed unsigned) fail to
// resolve, as dt_decl_type's lookup of the name they spell does.
const Type* Checker::basicType(const ast::DeclSpec& spec) {
  int longs = 0, shorts = 0, signeds = 0, unsigneds = 0;
  std::string basic;
  for (const auto& w : spec.basicWords) {
    if (w == "signed") {
      signeds++;
    } else if (w == "unsigned") {
      unsigneds++;
    } else if (w == "long") {
      longs++;
    } else if (w == "short") {
      shorts++;
    } else {
      if (!basic.empty()) {
        error("D_DECL_COMBO", spec.loc, "invalid type combination");
        return nullptr;
      }
      basic = w;
    }
  }
  auto repeated = [&](const char* word, const char* times) {
    error("D_DECL_COMBO", spec.loc,
          std::string("the attribute '") + word + "' may only be used at most " + times +
              " in a declaration");
    return nullptr;
  };
  if (longs > 2) return repeated("long", "twice");
  if (shorts > 1) return repeated("short", "once");
  if (signeds > 1) return repeated("signed", "once");
  if (unsigneds > 1) return repeated("unsigned", "once");
  const std::string size = shorts ? "short" : longs == 2 ? "long long" : longs ? "long" : "";
  if ((shorts && longs) || (signeds && unsigneds)) {
    // dt_decl_type's spelling: each attribute followed by a space.
    std::string spelled;
    if (signeds) spelled += "signed ";
    if (unsigneds) spelled += "unsigned ";
    if (shorts) spelled += "short ";
    if (longs == 1) spelled += "long ";
    if (longs == 2) spelled += "long long ";
    if (!shorts && !longs) spelled += basic;
    error("D_UNKNOWN", spec.loc, "failed to resolve type " + spelled + ": Unknown type name");
    return nullptr;
  }
  std::string name;
  for (const std::string& part : {std::string(signeds     ? "signed"
                                              : unsigneds ? "unsigned"
                                                          : ""),
                                  size, basic}) {
    if (part.empty()) continue;
    if (!name.empty()) name += ' ';
    name += part;
  }
  if (name.empty()) name = "int";  // `unsigned x;`-style implicit int
  const Type* t = types_.lookup(name);
  if (!t) error("D_DECL_COMBO", spec.loc, "invalid type combination: " + name);
  return t;
}

// `struct s { ... }` lays out its members as illumos' CTF library does
// (ctf_add_member): each member starts at the first byte after the bits of
// the one before, rounded up to its alignment, and the struct ends where
// its last member does. A bit-field is an integer of just its width, in
// the smallest unit of 1, 2, 4 or 8 bytes that holds it, so bit-fields do
// not share bytes: `struct { int a : 1; int b : 3; }` is two bytes long.
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
  uint32_t size = 0, align = 1;
  uint32_t endBits = 0;  // where the previous member's bits end
  bool first = true;
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
        // As dt_decl_member reports CTF's refusal.
        error("D_UNKNOWN", m.loc,
              "failed to define member '" + m.declarator.name +
                  "': Duplicate member or variable name");
        return nullptr;
      }
    }
    Member member{m.declarator.name, mt, 0, 0, 0, spelledTypeName(types_, m.spec, mt)};
    uint32_t memberSize = mt->size, memberAlign = mt->align, bits = mt->size * 8;
    if (m.bitWidth) {
      const std::string name = m.declarator.name.empty() ? "(anon)" : m.declarator.name;
      if (!expr(*m.bitWidth)) return nullptr;
      // An unnamed bit-field of width 0 only asks for a new unit: ignored.
      if (m.declarator.name.empty() && m.bitWidth->constValue == 0) continue;
      // dt_decl_member's checks, in its order.
      if (!m.bitWidth->constValue || *m.bitWidth->constValue <= 0) {
        error("D_DECL_BFCONST", m.loc,
              "positive integral constant expression expected as bit-field size");
        return nullptr;
      }
      if (!mt->isInteger()) {
        error("D_DECL_BFTYPE", m.loc, "invalid type for bit-field: " + name);
        return nullptr;
      }
      if (*m.bitWidth->constValue > mt->size * 8) {
        error("D_DECL_BFSIZE", m.loc, "bit-field too big for type: " + name);
        return nullptr;
      }
      bits = static_cast<uint32_t>(*m.bitWidth->constValue);
      memberSize = 1;
      while (memberSize * 8 < bits) memberSize *= 2;
      memberAlign = memberSize;
      member.bitWidth = bits;
    }
    uint32_t at = 0;
    if (kind == Type::Kind::Union) {
      size = std::max(size, memberSize);
    } else {
      if (!first) at = alignUp(alignUp(endBits, 8) / 8, std::max<uint32_t>(memberAlign, 1));
      size = first ? std::max(size, memberSize) : at + memberSize;
      endBits = at * 8 + bits;
    }
    first = false;
    member.offset = at;
    member.bitOffset = at * 8;
    align = std::max(align, memberAlign);
    t->members.push_back(std::move(member));
  }
  t->size = size;
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

const Type* Checker::resolveDeclared(const ast::DeclSpec& spec, const ast::Declarator& d,
                                     size_t steps) {
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
  for (size_t i = 0; i < std::min(steps, d.steps.size()); i++) {
    const ast::DeclaratorStep& step = d.steps[i];
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
        for (size_t i = 0; i < step.params.size(); i++) {
          const ast::ParamDecl& param = *step.params[i];
          // dt_decl_pop_param, then dt_decl_prototype's check of the type.
          if (param.spec.storage != ast::StorageClass::None &&
              param.spec.storage != ast::StorageClass::Register) {
            error("D_DECL_PARMCLASS", param.spec.loc,
                  "inappropriate storage class for function or associative array parameter");
            return nullptr;
          }
          const bool dynamic =
              std::any_of(param.declarator.steps.begin(), param.declarator.steps.end(),
                          [](const ast::DeclaratorStep& s) { return !s.arrayKeys.empty(); });
          if (dynamic) {
            const std::string& name = param.declarator.name;
            error("D_DECL_PROTO_TYPE", param.spec.loc,
                  "function prototype may not use parameter of type dynamic variable: " +
                      (name.empty() ? std::string("(anonymous)") : name) + ", parameter #" +
                      std::to_string(i + 1));
            return nullptr;
          }
          if (!resolveDeclared(param.spec, param.declarator)) return nullptr;
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
