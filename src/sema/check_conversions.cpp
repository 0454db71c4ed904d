// Built-in identifiers, assignability and the implicit conversions the
// checker inserts: string pointers, bit-field promotions, pointer scaling,
// and what translated pointers may not be used for.
#include "sema/checker.h"
#include "sema/identifier_versions.h"
#include "sema/type_rules.h"

namespace dtrace::sema {

using ast::Expr;
using ast::ExprKind;
using ast::Op;

// A built-in variable, subroutine, action or aggregating function of the
// program's D version (an identifier libdtrace's globals hold, di_gen 0).
bool Checker::isBuiltinIdentifier(const std::string& name) {
  return (builtinVariable(name) || isFunctionName(name)) && introducedIn(name) <= version_;
}

// A built-in variable of the program's D version: dt_opt_version's
// dt_reduce drops later ones, so their names are the program's own.
const Variable* Checker::builtinVariable(std::string_view name) {
  if (introducedIn(name) > version_) return nullptr;
  return symbols_.findBuiltin(name, types_);
}

// A global declared again must be what it was; DTrace says how it differs
// (dt_node_decl): kind and type, a key's type, or the tuple's length.
bool Checker::sameDeclaration(const Variable& old, const Type* type,
                              const std::vector<const Type*>& keyTypes, const ast::Declarator& d) {
  const bool keyed = !keyTypes.empty();
  auto kind = [](bool k) { return k ? "associative array" : "scalar"; };
  const std::string head = "identifier redeclared: " + d.name + "\n\t current: ";
  if (old.isKeyed() != keyed || old.type != type) {
    return error("D_DECL_IDRED", d.loc,
                 head + kind(keyed) + " " + type->name + "\n\tprevious: " + kind(old.isKeyed()) +
                     " " + (old.type ? old.type->name : "int"));
  }
  if (!keyed) return true;
  for (size_t i = 0; i < keyTypes.size() && i < old.keyTypes.size(); i++) {
    if (keyTypes[i] == old.keyTypes[i]) continue;
    const std::string n = std::to_string(i + 1);
    return error("D_DECL_IDRED", d.loc,
                 head + "associative array, key #" + n + " of type " + keyTypes[i]->name +
                     "\n\tprevious: associative array, key #" + n + " of type " +
                     old.keyTypes[i]->name);
  }
  if (keyTypes.size() != old.keyTypes.size()) {
    return error("D_DECL_IDRED", d.loc,
                 head + "associative array of " + type->name + ", tuple length " +
                     std::to_string(keyTypes.size()) + "\n\tprevious: associative array of " +
                     old.type->name + ", tuple length " + std::to_string(old.keyTypes.size()));
  }
  return true;
}

bool Checker::assignable(const Type* to, const Expr& fromExpr) const {
  const Type* from = fromExpr.type;
  if (to->isString() || from->isString()) {
    return to->isString() && (from->isString() || from->isCharArray());
  }
  if (to->isInteger() && from->isInteger()) return true;
  if (to->isStruct() || to->isFloat() || to->kind == Type::Kind::Function) {
    return compatible(to, from);
  }
  return pointerCompatibleTypes(to, false, from, isNullConstant(fromExpr), nullptr);
}

bool Checker::pointerCompatible(const Expr& a, const Expr& b, const Type** result) const {
  return pointerCompatibleTypes(a.type, isNullConstant(a), b.type, isNullConstant(b), result);
}

void Checker::replaceWithEmptyString(ast::ExprPtr& operand) {
  auto empty = std::make_unique<Expr>(ExprKind::StringLiteral, operand->loc);
  empty->type = types_.boundedString(1);
  operand = std::move(empty);
}

bool hasNullMarker(const Expr& e) {
  const Variable* v = e.variable;
  return v && v->type->isString() && e.type == v->type && !e.storageRoot &&
         (v->kind == Variable::Kind::Global || v->kind == Variable::Kind::ClauseLocal);
}

// A string and a char pointer may be assigned to each other, as DTrace's
// dt_node_is_argcompat allows: a string takes a copy of the string at the
// pointer; a char pointer takes the address of a copy of the string in
// scratch space, which lasts until the clause ends (DTrace's string
// temporaries live there too).
void Checker::convertStringPointer(ast::ExprPtr& value, const Type* to) {
  const Type* from = value->type;
  std::unique_ptr<Expr> converted;
  if (to->isString() && from->isCharPointer()) {
    converted = std::make_unique<Expr>(ExprKind::Stringof, value->loc);
    converted->type = types_.stringType();
  } else if (to->isCharPointer() && from->isString()) {
    converted = std::make_unique<Expr>(ExprKind::Call, value->loc);
    becomeInternalCall(*converted, ir::Subroutine::StringAddress);
    converted->type = to;
  } else {
    return;
  }
  converted->operands.push_back(std::move(value));
  value = std::move(converted);
}

void Checker::promoteBitField(ast::ExprPtr& operand) {
  if (!isNarrowUnsignedBitField(*operand)) return;
  auto cast = std::make_unique<Expr>(ExprKind::Cast, operand->loc);
  cast->typeName = std::make_shared<ast::TypeName>();
  cast->typeName->spec.basicWords = {"int"};
  cast->typeName->loc = operand->loc;
  cast->type = types_.intType();
  cast->operands.push_back(std::move(operand));
  operand = std::move(cast);
}

// The generated code for a compound assignment does the arithmetic in the
// wider operand type, which a 64-bit count keeps at 64 bits.
void Checker::scalePointerIncrement(Expr& assign, const Type* pointer) {
  if (assign.countScaled) return;
  assign.countScaled = true;
  ast::ExprPtr& count = assign.operands[1];
  const SourceLoc loc = count->loc;
  auto size = std::make_unique<Expr>(ExprKind::IntLiteral, loc);
  size->intValue = std::max<uint32_t>(1, pointer->target->size);
  size->constValue = static_cast<int64_t>(size->intValue);
  size->suffixUnsigned = true;
  size->suffixLongs = 1;
  size->text = std::to_string(size->intValue) + "UL";
  size->type = types_.ulongType();
  auto scaled = std::make_unique<Expr>(ExprKind::Binary, loc);
  scaled->op = Op::Mul;
  scaled->type = types_.arithmeticResult(count->type, types_.ulongType());
  scaled->operands.push_back(std::move(count));
  scaled->operands.push_back(std::move(size));
  fold(*scaled);
  count = std::move(scaled);
}

bool Checker::refuseTranslatedPointer(const Expr& e, const char* user) {
  if (!isTranslatedPointer(e)) return true;
  const std::string name = e.kind == ExprKind::Identifier ? e.text + " " : "";
  return error("D_OP_DYN", e.loc,
               std::string(user ? user : "") + "translated pointer " + name +
                   "may only be dereferenced or used with ->");
}

// A statement or predicate is compiled on its own (illumos's dt_cg): its
// value cannot be a translated pointer.
bool Checker::refuseTranslatedResult(const Expr& e) {
  if (!isTranslatedPointer(e)) return true;
  return error("D_CG_DYN", e.loc, "expression cannot evaluate to result of a translated pointer");
}

// The operands an expression uses as values: all but an assignment's
// target, an operand of * or -> (member() and dereference() allow those)
// and a cast's.
bool Checker::refuseTranslatedOperands(const Expr& e) {
  if (e.kind == ExprKind::Unary && e.op == Op::Deref) return true;
  if (e.kind == ExprKind::Cast) return true;  // cast() allows what it can convert
  for (size_t i = e.kind == ExprKind::Assign ? 1 : 0; i < e.operands.size(); i++) {
    if (e.operands[i].get() == e.inlineValue) continue;  // what a translated args[n] stands for
    if (!refuseTranslatedPointer(*e.operands[i])) return false;
  }
  return true;
}

const Type* Checker::sizeofType(Expr& e, const Type* of, bool bitField) {
  if (bitField) {
    error("D_SIZEOF_BITFIELD", e.loc, "cannot apply sizeof to a bit-field");
    return nullptr;
  }
  of = types_.complete(of);
  const bool incomplete = (of->isStruct() || of->kind == Type::Kind::Enum) && !of->complete;
  if (of->isVoid() || incomplete || of->size == 0) {
    error("D_SIZEOF_TYPE", e.loc, "cannot apply sizeof to an operand of unknown size");
    return nullptr;
  }
  // A string is strsize bytes to D, as illumos sizes its string type; the
  // buffer's extra byte for the terminating NUL is this implementation's.
  e.constValue = of == types_.stringType() ? types_.strsize() : of->size;
  return types_.lookup("size_t");
}

}  // namespace dtrace::sema
