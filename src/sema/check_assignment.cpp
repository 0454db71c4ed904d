// Assignments: what may be assigned (lvalues, the variables they declare
// on first use) and the ++, -- and compound operators on pointers.
#include "sema/checker.h"
#include "sema/identifier_versions.h"
#include "sema/type_rules.h"

namespace dtrace::sema {

using ast::Expr;
using ast::ExprKind;
using ast::Op;

// An associative array's name, or a name not yet known (which only an
// associative array can be when indexed).
bool Checker::namesAssociative(const Expr& base) {
  if (const std::string* scope = scopeOf(base)) {
    // An unknown this->x indexed is refused when checked (D_ARR_LOCAL).
    const Variable* v = *scope == "this" ? symbols_.findClauseLocal(base.text)
                                         : symbols_.findThreadLocal(base.text);
    return !v || v->isKeyed();
  }
  if (base.kind != ExprKind::Identifier) return false;
  const Variable* v = symbols_.findGlobal(base.text);
  if (v) return v->kind == Variable::Kind::Associative;
  return defs_.inlines.find(base.text) == defs_.inlines.end() && !builtinVariable(base.text);
}

// Whether memory is named through a built-in variable's pointer
// (curthread->pid, args[0]->x, *curpsinfo): such an object is not
// writable, as dt_cook_op1/dt_cook_op2 pass DT_NF_WRITABLE from a pointer
// to what it reaches and a built-in lacks it. A program's own variable,
// or a cast to a pointer, makes it writable again (a store then faults
// at run time outside alloca() memory, as dtrace_canstore decides).
bool Checker::reachedThroughBuiltin(const Expr& target) const {
  const Expr* e = &target;
  for (;;) {
    switch (e->kind) {
      case ExprKind::Member:
      case ExprKind::Index:
        e = e->operands[0].get();
        break;
      case ExprKind::Unary:
        if (e->op != Op::Deref) return false;
        e = e->operands[0].get();
        break;
      case ExprKind::Binary:  // p + i: the pointer operand
        if (e->op != Op::Add && e->op != Op::Sub) return false;
        e = e->operands[0]->type && e->operands[0]->type->isPointer() ? e->operands[0].get()
                                                                      : e->operands[1].get();
        break;
      case ExprKind::Identifier:
        return e->variable && e->variable->builtin != Builtin::None;
      default:
        return false;
    }
  }
}

// The type of what an assignment or ++/-- writes: a variable (created on
// first assignment), a member or element of one, or an object in memory.
const Type* Checker::lvalueType(Expr& target, const Type* valueType, ast::Op op) {
  const bool variableForm =
      target.kind == ExprKind::Identifier ||
      (target.kind == ExprKind::Member && target.isArrow &&
       target.operands[0]->kind == ExprKind::Identifier &&
       (target.operands[0]->text == "this" || target.operands[0]->text == "self")) ||
      (target.kind == ExprKind::Index && namesAssociative(*target.operands[0]));
  if (variableForm) {
    Variable* v = lvalueVariable(target, valueType, op);
    return v ? v->type : nullptr;
  }
  const std::string opName = ast::opSpelling(op);
  if (target.kind != ExprKind::Member && target.kind != ExprKind::Index &&
      !(target.kind == ExprKind::Unary && target.op == Op::Deref)) {
    error("D_OP_LVAL", target.loc,
          "operator " + opName + " requires modifiable lvalue as an operand");
    return nullptr;
  }
  storingTo_ = &target;
  const Type* t = expr(target);
  storingTo_ = nullptr;
  if (!t) return nullptr;
  if (target.translatedMember || (!target.inMemory && !target.storageRoot) ||
      reachedThroughBuiltin(target)) {
    error("D_OP_WRITE", target.loc,
          "operator " + opName + " can only be applied to a writable variable");
    return nullptr;
  }
  if (t->isArray()) {
    error("D_OP_ARRFUN", target.loc,
          "operator " + opName + " may not be applied to operand of type " + quoted(t));
    return nullptr;
  }
  if (t->isStruct() && op != Op::Assign) {
    error("D_OP_SCALAR", target.loc, "operator " + opName + " requires an operand of scalar type");
    return nullptr;
  }
  return t;
}

Variable* Checker::lvalueVariable(Expr& target, const Type* valueType, ast::Op op) {
  const std::string opName = ast::opSpelling(op);
  // = and ++/-- create a variable; a compound assignment reads it first
  // (dt_cook_op2 cooks its left side as a reference).
  const bool creates = op == ast::Op::Assign || op == ast::Op::PreInc || op == ast::Op::PreDec ||
                       op == ast::Op::PostInc || op == ast::Op::PostDec;
  auto undeclared = [&](const Expr& name, const char* prefix) {
    if (creates) return false;
    error("D_VAR_UNDEF", name.loc,
          std::string(prefix) + name.text + " has not yet been declared or assigned");
    return true;
  };
  if (target.kind == ExprKind::Identifier) {
    if (types_.findEnumerator(target.text)) {  // a constant, as DTrace sees it
      error("D_OP_LVAL", target.loc,
            "operator " + opName + " requires modifiable lvalue as an operand");
      return nullptr;
    }
    if (builtinVariable(target.text) || defs_.inlines.count(target.text)) {
      error("D_OP_WRITE", target.loc,
            "operator " + opName + " can only be applied to a writable variable");
      return nullptr;
    }
    if (target.text.find('`') != std::string::npos) {
      kernelVariableError(target);
      return nullptr;
    }
    Variable* v = symbols_.findGlobal(target.text);
    if (v && v->isKeyed()) {
      arrayAsScalarError(target);
      return nullptr;
    }
    if (!v && undeclared(target, "")) return nullptr;
    if (!v) {
      v = symbols_.addGlobal(target.text, target.loc);
      v->type = valueType->isString() || valueType->isCharArray() ? types_.stringType() : valueType;
    }
    target.variable = v;
    target.type = v->type;
    return v;
  }
  if (target.kind == ExprKind::Member && target.operands[0]->kind == ExprKind::Identifier &&
      target.operands[0]->text == "this" && target.isArrow) {
    Variable* v = symbols_.findClauseLocal(target.text);
    if (!v && undeclared(target, "this->")) return nullptr;
    if (!v) {
      v = symbols_.addClauseLocal(target.text, target.loc);
      v->type = valueType->isString() || valueType->isCharArray() ? types_.stringType() : valueType;
    }
    target.variable = v;
    target.type = v->type;
    return v;
  }
  if (target.kind == ExprKind::Member && target.operands[0]->kind == ExprKind::Identifier &&
      target.operands[0]->text == "self" && target.isArrow) {
    Variable* v = symbols_.findThreadLocal(target.text);
    if (v && v->isKeyed()) {
      arrayAsScalarError(target);
      return nullptr;
    }
    if (!v && undeclared(target, "self->")) return nullptr;
    if (!v) {
      v = symbols_.addThreadLocal(target.text, target.loc);
      v->type = valueType->isString() || valueType->isCharArray() ? types_.stringType() : valueType;
    }
    target.variable = v;
    target.type = v->type;
    return v;
  }
  if (target.kind == ExprKind::Index && scopeOf(*target.operands[0])) {
    Expr& name = *target.operands[0];
    if (*scopeOf(name) == "this") {
      localArrayError(name);
      return nullptr;
    }
    Variable* v = symbols_.findThreadLocal(name.text);
    if (!v && undeclared(name, "self->")) return nullptr;
    if (!v) {
      v = symbols_.addThreadLocal(name.text, name.loc);
      v->threadLocalArray = true;
      v->type = valueType->isString() || valueType->isCharArray() ? types_.stringType() : valueType;
    }
    if (!checkKeys(*v, target)) return nullptr;
    name.variable = v;
    target.variable = v;
    target.type = v->type;
    return v;
  }
  if (target.kind == ExprKind::Index && target.operands[0]->kind == ExprKind::Identifier) {
    Expr& name = *target.operands[0];
    Variable* v = symbols_.findGlobal(name.text);
    if (!v) {
      if (builtinVariable(name.text)) {
        error("D_OP_WRITE", target.loc,
              "operator " + opName + " can only be applied to a writable variable");
        return nullptr;
      }
      if (undeclared(name, "")) return nullptr;
      v = symbols_.addAssociative(name.text, name.loc);
      v->type = valueType->isString() || valueType->isCharArray() ? types_.stringType() : valueType;
    }
    if (!checkKeys(*v, target)) return nullptr;
    name.variable = v;
    target.variable = v;
    target.type = v->type;
    return v;
  }
  error("D_OP_LVAL", target.loc,
        "operator " + opName + " requires modifiable lvalue as an operand");
  return nullptr;
}

const Type* Checker::assign(Expr& e) {
  Expr& target = *e.operands[0];
  Expr& value = *e.operands[1];
  const Type* vt = expr(value);
  if (!vt) return nullptr;
  if (vt->isAggregation()) {
    error(
        "D_OP_INCOMPAT", e.loc,
        std::string("operator ") + ast::opSpelling(e.op) + " may not be applied to an aggregation");
    return nullptr;
  }
  const Type* lt = lvalueType(target, vt, e.op);
  if (!lt) return nullptr;
  if (vt->isVoid() && !isActionCall(value)) {  // an action is refused later, as D_CG_EXPR
    if (!lt->isVoid()) {                       // dt_cook_op2: dt_node_is_argcompat fails
      error("D_OP_INCOMPAT", e.loc,
            "operands have incompatible types: " + quoted(lt) + " " + ast::opSpelling(e.op) +
                " \"void\"");
    } else {
      error("D_OP_VOID", value.loc, "operator = requires an operand of non-void type");
    }
    return nullptr;
  }
  if (isActionCall(value)) return vt;  // refused once the program is checked
  std::string opName = ast::opSpelling(e.op);
  if (lt->isArray()) {  // whole arrays are not assigned in D (a string is not an array)
    error("D_OP_ARRFUN", target.loc,
          "operator " + opName + " may not be applied to operand of type " + quoted(lt));
    return nullptr;
  }
  const Op base = ast::compoundBase(e.op);
  if ((base == Op::Add || base == Op::Sub) && !(lt->isInteger() && vt->isInteger())) {
    return pointerIncrement(e, lt);
  }
  if (e.op != Op::Assign) {
    if (!lt->isInteger() || !vt->isInteger()) {
      error(needsIntegers(base) ? "D_OP_INT" : "D_OP_ARITH", e.loc,
            "operator " + opName + " requires operands of " +
                (needsIntegers(base) ? "integral" : "arithmetic") + " type");
      return nullptr;
    }
    // dt_node_op2 refuses /= and %= by the constant 0 as it does / and %.
    if ((base == Op::Div || base == Op::Mod) && value.constValue == 0) {
      error("D_DIV_ZERO", e.loc, "expression contains division by zero");
      return nullptr;
    }
    return lt;
  }
  // Assigning 0 (or NULL) to a whole struct, union or string element of a
  // dynamic variable deletes it, as storing 0 deletes any other (the code
  // generator deletes on the integer); to another string it stores "".
  const bool wholeDynamic = target.variable && target.variable->isDynamic() && !target.storageRoot;
  if (isNullConstant(value) && wholeDynamic && (lt->isStruct() || lt->isString())) return lt;
  if (lt->isString() && isNullConstant(value)) {
    if (hasNullMarker(target)) return lt;  // DTrace's NULL string
    replaceWithEmptyString(e.operands[1]);
  }
  convertStringPointer(e.operands[1], lt);
  if (!assignable(lt, *e.operands[1])) {
    error("D_OP_INCOMPAT", e.loc,
          "operands have incompatible types: " + quoted(lt) + " = " + quoted(e.operands[1]->type));
    return nullptr;
  }
  // An integer constant is stored as a value of the variable's type, as C
  // converts it (DTrace's dt_assign_common casts a constant right side):
  // -3 stored in an unsigned char is 253. Other values keep the register.
  if (Expr& stored = *e.operands[1]; stored.constValue && lt->isInteger()) {
    stored.constValue = convert(*stored.constValue, lt);
  }
  return lt;
}

// p += n and p -= n on a pointer of known size move it by n objects.
const Type* Checker::pointerIncrement(Expr& e, const Type* lt) {
  const Type* vt = e.operands[1]->type;
  const std::string opName = ast::opSpelling(e.op);
  const std::string incompatible =
      "operands have incompatible types: " + quoted(lt) + " " + opName + " " + quoted(vt);
  if (lt->isString() || vt->isString()) {
    error("D_OP_INCOMPAT", e.loc, incompatible);
    return nullptr;
  }
  if (!lt->isPointer() || isVoidOrFunctionPointer(lt)) {
    error("D_OP_VFPTR", e.loc,
          "operator " + opName + " requires left-hand scalar operand of known size");
    return nullptr;
  }
  if (!vt->isInteger()) {  // illumos accepts a compatible pointer; nothing needs it
    error("D_OP_INCOMPAT", e.loc, incompatible);
    return nullptr;
  }
  scalePointerIncrement(e, lt);
  return lt;
}

}  // namespace dtrace::sema
