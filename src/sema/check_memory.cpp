// Pointers, arrays and struct members: *p, &x, p->m, s.m, p[i], a[i] and
// pointer arithmetic with C's scaling. Kernel memory is read with checked
// loads at run time; members of structs held in D variables are offsets
// into the variable's storage.
#include "sema/checker.h"

namespace dtrace::sema {

using ast::Expr;
using ast::ExprKind;
using ast::Op;

namespace {

std::string quoted(const Type* t) { return "\"" + t->name + "\""; }

}  // namespace

const Type* Checker::member(Expr& e, bool forAssignment) {
  (void)forAssignment;
  Expr& base = *e.operands[0];
  if (base.kind == ExprKind::Identifier && (base.text == "this" || base.text == "self") &&
      e.isArrow) {
    const bool local = base.text == "this";
    Variable* v = local ? symbols_.findClauseLocal(e.text) : symbols_.findThreadLocal(e.text);
    if (!v) {
      error("D_VAR_UNDEF", e.loc,
            base.text + "->" + e.text + " has not yet been declared or assigned");
      return nullptr;
    }
    if (v->isKeyed()) {
      arrayAsScalarError(e);
      return nullptr;
    }
    e.variable = v;
    return v->type;
  }
  const Type* bt = expr(base);
  if (!bt) return nullptr;
  const std::string opName = e.isArrow ? "->" : ".";
  const Expr& source = throughInlines(base);
  if (source.kind == ExprKind::Xlate) return translatedMember(e, source, source.type->isPointer());
  if (base.translation) return translatedMember(e, *base.translation, false);
  // A member of a struct member a translator builds with xlate
  // (curpsinfo->pr_start.tv_sec): the inner translator's member.
  if (base.translatedMember && base.translatedMember->kind == ExprKind::Xlate &&
      !base.translatedMember->type->isPointer()) {
    return translatedMember(e, *base.translatedMember, false);
  }
  const Type* st = bt;
  if (e.isArrow) {
    if (!bt->isPointer()) {
      error("D_OP_PTR", e.loc, "operator -> must be applied to a pointer");
      return nullptr;
    }
    st = bt->target;
  }
  st = types_.complete(st);
  if (!st->isStruct()) {
    error("D_OP_SOU", e.loc,
          "operator " + opName + " cannot be applied to type " + quoted(st) +
              "; must be applied to a struct or union");
    return nullptr;
  }
  if (!st->complete) {
    error("D_OP_INCOMPLETE", e.loc,
          "operator " + opName + " cannot be applied to a forward declaration: no " + st->name +
              " definition is available");
    return nullptr;
  }
  const Member* m = types_.findMember(st, e.text);
  if (!m) {
    error("D_TYPE_MEMBER", e.loc, e.text + " is not a member of " + st->name);
    return nullptr;
  }
  e.bitWidth = m->bitWidth;
  e.bitOffset = m->bitWidth ? m->bitOffset - m->offset * 8 : 0;
  // A translator's struct input is read where its value is (the
  // translator is given its address).
  const bool structInput =
      !e.isArrow && source.variable && source.variable->kind == Variable::Kind::TranslatorInput;
  if (e.isArrow || base.inMemory || structInput) {
    e.inMemory = true;
    e.storageOffset = m->offset;  // from the pointer, or from the base's address
  } else if (source.variable && source.variable->kind != Variable::Kind::Builtin) {
    // A struct variable, or an inline that names one.
    e.variable = source.variable;
    e.storageRoot = source.storageRoot ? source.storageRoot : &source;
    e.storageOffset = source.storageOffset + m->offset;
  } else {
    error("D_OP_SOU", e.loc, "operator . cannot be applied to this struct or union value");
    return nullptr;
  }
  return m->type;
}

const Type* Checker::dereference(Expr& e) {
  const Type* t = expr(*e.operands[0]);
  if (!t) return nullptr;
  if (t->isString()) {
    // *s is s's first character, *(s + i) its character at i (Oracle's
    // DTrace treats a string as a char pointer here; illumos refuses it).
    Expr& operand = *e.operands[0];
    ast::ExprPtr string, at;
    if (operand.kind == ExprKind::Call && operand.subroutine == ir::Subroutine::StringOffset) {
      string = std::move(operand.operands[0]);
      at = std::move(operand.operands[1]);
    } else {
      string = std::move(e.operands[0]);
      at = std::make_unique<Expr>(ExprKind::IntLiteral, e.loc);
      at->type = types_.intType();
      at->constValue = 0;
    }
    e.operands.clear();
    e.operands.push_back(std::move(string));
    e.operands.push_back(std::move(at));
    becomeInternalCall(e, ir::Subroutine::StringCharacter);
    return types_.charType();
  }
  if (!t->isPointer() && !t->isArray()) {
    error("D_DEREF_NONPTR", e.loc, "cannot dereference non-pointer type");
    return nullptr;
  }
  if (t->target->isVoid()) {
    error("D_DEREF_VOID", e.loc, "cannot dereference pointer to void");
    return nullptr;
  }
  if (t->target->kind == Type::Kind::Function) {
    error("D_DEREF_FUNC", e.loc, "cannot dereference pointer to function");
    return nullptr;
  }
  // *xlate<T *>(x) is the whole translated struct, built member by member.
  const Expr& source = throughInlines(*e.operands[0]);
  if (source.kind == ExprKind::Xlate) {
    e.translation = &source;
    return t->target;
  }
  e.inMemory = true;
  return t->target;
}

const Type* Checker::addressOf(Expr& e) {
  Expr& operand = *e.operands[0];
  const Type* t = expr(operand);
  if (!t) return nullptr;
  if (operand.bitWidth) {
    error("D_ADDROF_BITFIELD", e.loc, "cannot take address of bit-field");
    return nullptr;
  }
  // A D variable itself has no address, nor has a built-in (&curthread) or
  // a string; a member or element of a variable does (&a[0], &s.m), as in
  // DTrace (dt_cook_op1: a DT_NODE_VAR is D_ADDROF_VAR).
  const bool partOfVariable = !operand.inMemory && operand.storageRoot;
  const bool builtinItself = operand.kind == ExprKind::Identifier && operand.variable &&
                             operand.variable->kind == Variable::Kind::Builtin;
  if (t->isString() || builtinItself ||
      (operand.variable && operand.variable->kind != Variable::Kind::Builtin && !partOfVariable)) {
    error("D_ADDROF_VAR", e.loc, "cannot take address of dynamic variable");
    return nullptr;
  }
  if (!operand.inMemory && !partOfVariable) {
    error("D_ADDROF_LVAL", e.loc, "unacceptable operand for unary & operator");
    return nullptr;
  }
  return types_.pointerTo(t);
}

// p[i] on a pointer or an array in memory; a[i] on a D array variable.
const Type* Checker::arrayIndex(Expr& e) {
  Expr& base = *e.operands[0];
  const Type* bt = expr(base);
  if (!bt) return nullptr;
  if (e.operands.size() != 2) {  // a tuple: only associative arrays take one
    const std::string what = base.kind == ExprKind::Identifier ? "scalar " + base.text : quoted(bt);
    error("D_ARR_BADREF", e.loc, "cannot access " + what + " as an associative array");
    return nullptr;
  }
  Expr& index = *e.operands[1];
  const Type* it = expr(index);
  if (!it) return nullptr;
  if (bt->isString() && it->isInteger()) {
    // s[i] reads the character at i as *(s + i) reads it (0 past the end,
    // a fault in a NULL string). Assigned, a string variable's characters
    // are an array of char written in place, as Oracle's DTrace lets it
    // (illumos refuses a string operand of + and so s[i]).
    const bool inVariable = storingTo_ == &e && !base.inMemory && base.variable &&
                            !base.translatedMember &&
                            base.variable->kind != Variable::Kind::Builtin &&
                            base.variable->kind != Variable::Kind::TranslatorInput;
    if (inVariable) {
      e.variable = base.variable;
      e.storageRoot = base.storageRoot ? base.storageRoot : &base;
      e.storageOffset = base.storageOffset;
      if (index.constValue && *index.constValue >= 0 &&
          static_cast<uint64_t>(*index.constValue) < bt->size) {
        e.storageOffset += static_cast<uint32_t>(*index.constValue);
      }
      return types_.charType();
    }
    becomeInternalCall(e, ir::Subroutine::StringCharacter);
    return types_.charType();
  }
  if (bt->isInteger() && it->isInteger()) {
    // dt_node_op2 makes x[i] *(x + i): the sum is no pointer to read.
    error("D_DEREF_NONPTR", e.loc, "cannot dereference non-pointer type");
    return nullptr;
  }
  if (!bt->isPointer() && !bt->isArray()) {
    error("D_OP_INCOMPAT", e.loc, "operator [ ] may not be applied to type " + quoted(bt));
    return nullptr;
  }
  if (!it->isInteger()) {
    error("D_OP_INT", e.loc, "operator [ ] index must be of integral type");
    return nullptr;
  }
  if (bt->target->isVoid()) {
    error("D_DEREF_VOID", e.loc, "cannot dereference pointer to void");
    return nullptr;
  }
  const Type* elem = bt->target;
  const bool inVariable = bt->isArray() && !base.inMemory && base.variable &&
                          !base.translatedMember && base.variable->kind != Variable::Kind::Builtin;
  // A zero-length array is C's flexible array member: any index goes.
  const bool outOfBounds =
      bt->isArray() && bt->count > 0 && index.constValue &&
      (*index.constValue < 0 || static_cast<uint64_t>(*index.constValue) >= bt->count);
  // An array in a dynamic variable is checked as the clause runs, as
  // DTrace checks it (a store out of its element is a bad address).
  if (outOfBounds && !(inVariable && base.variable->isDynamic())) {
    error(
        "D_ARR_BOUNDS", e.loc,
        "index outside array bounds: " + std::to_string(static_cast<uint64_t>(*index.constValue)) +
            ", max is " + std::to_string(bt->count));
    return nullptr;
  }
  if (inVariable) {
    // An element of an array held in a D variable (a translated array
    // member is the translator's expression, wherever that puts it).
    e.variable = base.variable;
    e.storageRoot = base.storageRoot ? base.storageRoot : &base;
    e.storageOffset = base.storageOffset;
    if (index.constValue && !outOfBounds) {
      e.storageOffset += static_cast<uint32_t>(*index.constValue) * elem->size;
    }
    return elem;
  }
  e.inMemory = true;
  return elem;
}

// p + i, i + p, p - i (scaled by the pointee's size) and p - q (a count).
const Type* Checker::pointerArithmetic(Expr& e) {
  const Type* a = e.operands[0]->type;
  const Type* b = e.operands[1]->type;
  const std::string opName = ast::opSpelling(e.op);
  if ((e.op != Op::Add && e.op != Op::Sub) || a->isFloat() || b->isFloat()) {
    error("D_OP_ARITH", e.loc, "operator " + opName + " requires operands of arithmetic type");
    return nullptr;
  }
  // void * and function pointers have no size to scale by (illumos's vfptr).
  auto sized = [](const Type* t) {
    return t->isArray() ||
           (t->isPointer() && !t->target->isVoid() && t->target->kind != Type::Kind::Function);
  };
  if (e.op == Op::Add && sized(a) && b->isInteger()) return types_.pointerTo(a->target);
  if (e.op == Op::Add && a->isInteger() && sized(b)) return types_.pointerTo(b->target);
  if (e.op == Op::Sub && sized(a) && b->isInteger()) return types_.pointerTo(a->target);
  if (e.op == Op::Sub && sized(a) && sized(b) &&
      pointerCompatible(*e.operands[0], *e.operands[1])) {
    return types_.lookup("ptrdiff_t");
  }
  error("D_OP_INCOMPAT", e.loc,
        "operands have incompatible types: " + quoted(a) + " " + opName + " " + quoted(b));
  return nullptr;
}

}  // namespace dtrace::sema
