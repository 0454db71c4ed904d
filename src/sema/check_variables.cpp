// D variables: this-> and self-> scopes, the errors on misused names, and
// the keys of associative arrays.
#include "sema/checker.h"
#include "sema/identifier_versions.h"
#include "sema/type_rules.h"

namespace dtrace::sema {

using ast::Expr;
using ast::ExprKind;
using ast::Op;

// Checks the keys of `a[k1, k2, ...]` against the array's key types, which
// its first use (or declaration) fixes. String keys widen to the longest.
// "this" or "self" when `e` is this->name or self->name.
const std::string* Checker::scopeOf(const Expr& e) {
  static const std::string kThis = "this", kSelf = "self";
  if (e.kind != ExprKind::Member || !e.isArrow || e.operands[0]->kind != ExprKind::Identifier) {
    return nullptr;
  }
  const std::string& scope = e.operands[0]->text;
  return scope == kThis ? &kThis : scope == kSelf ? &kSelf : nullptr;
}

const Type* Checker::localArrayError(const Expr& name) {
  error("D_ARR_LOCAL", name.loc,
        "local variables may not be used as associative arrays: " + name.text);
  return nullptr;
}

void Checker::arrayAsScalarError(const Expr& e) {
  error("D_IDENT_BADREF", e.loc,
        "associative array '" + e.text + "' may not be referenced as scalar");
}

// DTrace's message for a key whose type differs from the array's
// (dt_idcook_sign): the label is right-aligned under "prototype".
std::string Checker::keyMismatch(const std::string& array, size_t i, const Type* prototype,
                                 const Type* key) {
  return array + "[ ] key #" + std::to_string(i + 1) +
         " is incompatible with prototype:\n\tprototype: " + prototype->name +
         "\n\t      key: " + key->name;
}

// Kernel data symbols: this kernel's kallsyms lists none, and BTF types
// only per-CPU variables, so there is neither an address nor a type.
void Checker::kernelVariableError(const Expr& e) {
  if (e.text.empty() || e.text.back() == '`') {  // no name at all
    error("D_IDENT_UNDEF", e.loc, "failed to resolve " + e.text + ": Unknown symbol name");
    return;
  }
  error("D_IDENT_UNDEF", e.loc,
        "failed to resolve " + e.text +
            ": kernel variables are not available on Linux (no data symbols or types)");
}

// dt_idcook_assc's words for a key that is no value to key by (void,
// an aggregation, translated data).
bool Checker::keyTypeError(const Expr& key, const Type* t, size_t n, const char* indexed) {
  std::string what = t->name;
  if (isTranslatedPointer(key)) {
    what = "pointer to translated data";
  } else if (key.translation) {
    what = "translated data";
  } else if (key.kind == ExprKind::AggregationRef) {
    what = "aggregation " + key.text;
  }
  return error(
      "D_KEY_TYPE", key.loc,
      what + " expression may not be used as " + indexed + " index: key #" + std::to_string(n));
}

// DIF has eight tuple registers for keys; dt_cg_arglist refuses a ninth
// (EDT_NOTUPREG, an error with no D tag).
bool Checker::checkKeyCount(const Expr& index) {
  constexpr size_t kTupleRegisters = 8;
  if (index.operands.size() - 1 <= kTupleRegisters) return true;
  return error("", index.loc, "Insufficient tuple registers to generate code");
}

bool Checker::checkKeys(Variable& v, Expr& index) {
  if (!v.isKeyed()) {
    return error("D_IDENT_BADREF", index.loc,
                 v.name + " is not an associative array and may not be indexed");
  }
  if (!checkKeyCount(index)) return false;
  std::vector<const Type*> keys;
  for (size_t i = 1; i < index.operands.size(); i++) {
    Expr& key = *index.operands[i];
    const Type* t = expr(key);
    if (!t) return false;
    if (t->isCharArray()) t = types_.stringType();  // a string, as dt_node_is_strcompat has it
    // Structs and unions are keys by their bytes, as in DTrace; translated
    // data is no object to key by.
    if (key.translation || isTranslatedPointer(key) ||
        (!t->isScalar() && !t->isString() && !t->isStruct())) {
      return keyTypeError(key, t, i, "associative array");
    }
    keys.push_back(t);
  }
  if (v.keyTypes.empty()) {
    for (const Type*& t : keys) {
      if (t->isString()) t = types_.stringType();
    }
    v.keyTypes = keys;
    return true;
  }
  if (keys.size() != v.keyTypes.size()) {
    return error("D_PROTO_LEN", index.loc,
                 v.name + "[ ] prototype mismatch: " + std::to_string(keys.size()) + " key" +
                     (keys.size() == 1 ? "" : "s") + " passed, " +
                     std::to_string(v.keyTypes.size()) + " expected");
  }
  // The first use fixed the keys' types; a later key of another integer
  // type is converted to it, as illumos's dt_cg_arglist casts each key to
  // the array's signature (dt_idcook_sign). Strings, structs, integers and
  // pointers do not mix (dt_node_is_argcompat).
  for (size_t i = 0; i < keys.size(); i++) {
    const Type* key = keys[i];
    const Type* formal = v.keyTypes[i];
    const bool sameKind = key->isString() == formal->isString() &&
                          key->isStruct() == formal->isStruct() &&
                          key->isPointer() == formal->isPointer();
    if (!sameKind || (key->isStruct() && types_.complete(key) != types_.complete(formal))) {
      return error("D_PROTO_ARG", index.operands[i + 1]->loc, keyMismatch(v.name, i, formal, key));
    }
  }
  return true;
}

const Type* Checker::associativeRead(Expr& e) {
  Expr& name = *e.operands[0];
  const std::string* scope = scopeOf(name);
  if (scope && *scope == "this") return localArrayError(name);
  if (!scope && name.kind != ExprKind::Identifier) {
    error("D_UNSUPPORTED", e.loc, "arrays and pointers are not supported yet");
    return nullptr;
  }
  Variable* v = scope ? symbols_.findThreadLocal(name.text) : symbols_.findGlobal(name.text);
  if (!v && !scope && name.text.find('`') != std::string::npos) {
    kernelVariableError(name);  // `hp_avenrun[0]: a kernel array
    return nullptr;
  }
  if (!v) {
    error("D_VAR_UNDEF", name.loc,
          (scope ? *scope + "->" : "") + name.text + " has not yet been declared or assigned");
    return nullptr;
  }
  if (!checkKeys(*v, e)) return nullptr;
  name.variable = v;
  e.variable = v;
  return v->type;
}

}  // namespace dtrace::sema
