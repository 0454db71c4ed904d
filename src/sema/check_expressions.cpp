// Expressions: literals, identifiers, macros, unary and binary operators,
// the ternary operator and casts.
#include <limits>

#include "ir/printf_format.h"
#include "sema/checker.h"
#include "sema/identifier_versions.h"
#include "sema/type_rules.h"

namespace dtrace::sema {

using ast::Expr;
using ast::ExprKind;
using ast::Op;

const Type* Checker::expr(Expr& e) {
  const Type* t = nullptr;
  switch (e.kind) {
    case ExprKind::IntLiteral:
      t = intLiteral(e);
      break;
    case ExprKind::CharLiteral:
      // As in C, and illumos's D: 'A' is an int; a constant of more bytes
      // than an int holds (up to 8) takes the type an integer literal of
      // its value would.
      t = e.intValue <= static_cast<uint64_t>(INT32_MAX) ? types_.intType() : intLiteral(e);
      e.constValue = static_cast<int64_t>(e.intValue);
      break;
    case ExprKind::StringLiteral:
      t = types_.boundedString(static_cast<uint32_t>(e.text.size() + 1));
      break;
    case ExprKind::Identifier:
      t = identifier(e, false);
      break;
    case ExprKind::MacroVar:
      t = macro(e);
      break;
    case ExprKind::AggregationRef:
      t = aggregationRef(e);
      break;
    case ExprKind::Unary:
      t = unary(e);
      break;
    case ExprKind::Binary:
      t = binary(e);
      break;
    case ExprKind::Assign:
      t = assign(e);
      break;
    case ExprKind::Ternary:
      t = ternary(e);
      break;
    case ExprKind::Cast:
      t = cast(e);
      break;
    case ExprKind::SizeofType: {
      const Type* of = resolveTypeName(*e.typeName);
      if (!of) return nullptr;
      t = sizeofType(e, of, false);
      break;
    }
    case ExprKind::SizeofExpr: {
      declareUnreferenced(*e.operands[0]);  // an int64_t, as dt_cook_op1 has it
      const Type* of = expr(*e.operands[0]);
      if (!of) return nullptr;
      // Every string is D's string type, strsize bytes (execname, ?: of
      // literals), as dt_node_sizeof sizes the type.
      if (of->isString()) of = types_.stringType();
      t = sizeofType(e, of, e.operands[0]->bitWidth != 0);
      break;
    }
    case ExprKind::Member:
      t = member(e, false);
      break;
    case ExprKind::Call:
      t = call(e);
      break;
    case ExprKind::Index:
      if (e.operands[0]->kind == ExprKind::AggregationRef) {
        error("D_AGG_SCALAR", e.loc,
              "aggregation " + e.operands[0]->text + " may not be used in an expression");
        return nullptr;
      }
      if (e.operands[0]->kind == ExprKind::Identifier && isBuiltinArray(e.operands[0]->text)) {
        t = builtinArray(e);
      } else if (auto in = defs_.inlines.find(e.operands[0]->text);
                 e.operands[0]->kind == ExprKind::Identifier && in != defs_.inlines.end() &&
                 !in->second.params.empty()) {
        t = inlineArrayRead(e);
      } else if (namesAssociative(*e.operands[0])) {
        t = associativeRead(e);
      } else {
        t = arrayIndex(e);
      }
      break;
    case ExprKind::Stringof: {
      declareUnreferenced(*e.operands[0]);  // an int64_t, as dt_cook_op1 has it
      const Type* of = expr(*e.operands[0]);
      if (!of) return nullptr;
      if (!of->isScalar() && !of->isString() && !of->isCharArray()) {
        error("D_STRINGOF_TYPE", e.loc, "cannot apply stringof to a value of type " + of->name);
        return nullptr;
      }
      t = of->isString() ? of : types_.stringType();
      break;
    }
    case ExprKind::Offsetof:
      t = offsetOf(e);
      break;
    case ExprKind::Xlate:
      t = xlate(e);
      break;
  }
  e.type = t;
  if (!t) return nullptr;
  switch (e.kind) {
    case ExprKind::Unary:
    case ExprKind::Binary:
    case ExprKind::Assign:
    case ExprKind::Ternary:
    case ExprKind::Cast:
    case ExprKind::Call:
    case ExprKind::Index:
    case ExprKind::Stringof:
      if (!refuseTranslatedOperands(e)) return nullptr;
      break;
    default:
      break;
  }
  return t;
}

const Type* Checker::intLiteral(Expr& e) {
  // C's rules: the first type in the list that can represent the value.
  uint64_t v = e.intValue;
  auto fitsSigned = [&](uint32_t size) {
    return v <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max() >> (64 - size * 8));
  };
  auto fitsUnsigned = [&](uint32_t size) { return size >= 8 || v < (uint64_t{1} << (size * 8)); };
  const Type* t = nullptr;
  struct Candidate {
    const Type* type;
    bool allowedDecimal;
  };
  const Candidate candidates[] = {
      {types_.intType(), true},    {types_.uintType(), false}, {types_.longType(), true},
      {types_.ulongType(), false}, {types_.int64(), true},     {types_.uint64(), false},
  };
  for (const auto& c : candidates) {
    if (c.type->rank < (e.suffixLongs == 0 ? 3 : e.suffixLongs == 1 ? 4 : 5)) continue;
    if (e.suffixUnsigned && c.type->isSigned) continue;
    if (e.decimal && !e.suffixUnsigned && !c.allowedDecimal) continue;
    if (c.type->isSigned ? fitsSigned(c.type->size) : fitsUnsigned(c.type->size)) {
      t = c.type;
      break;
    }
  }
  if (!t) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(v));
    error("D_INT_OFLOW", e.loc,
          std::string("integer constant ") + hex +
              " cannot be represented in any built-in integral type");
    return nullptr;
  }
  e.constValue = static_cast<int64_t>(v);
  return t;
}

const Type* Checker::identifier(Expr& e, bool forAssignment) {
  if (translatorScope_ && e.text == translatorScope_->name) {
    e.variable = translatorScope_;
    return translatorScope_->type;
  }
  if (inlineScope_) {
    for (const Variable* param : *inlineScope_) {
      if (param->name != e.text) continue;
      if (forAssignment) {
        error("D_OP_WRITE", e.loc, "operator = can only be applied to a writable variable");
        return nullptr;
      }
      e.variable = param;
      return param->type;
    }
  }
  if (const Variable* b = builtinVariable(e.text)) {
    if (b->builtin == Builtin::Unavailable) {
      error("D_VAR_UNSUP", e.loc, e.text + " is not available on Linux");
      return nullptr;
    }
    if (forAssignment) {
      error("D_OP_WRITE", e.loc, "operator = can only be applied to a writable variable");
      return nullptr;
    }
    e.variable = b;
    return b->type;
  }
  if (Variable* g = symbols_.findGlobal(e.text)) {
    if (g->kind == Variable::Kind::Associative) {
      arrayAsScalarError(e);
      return nullptr;
    }
    e.variable = g;
    return g->type;
  }
  const Type* enumType = nullptr;
  if (const Enumerator* en = types_.findEnumerator(e.text, &enumType)) {
    if (forAssignment) {
      error("D_OP_WRITE", e.loc, "operator = can only be applied to a writable variable");
      return nullptr;
    }
    e.constValue = en->value;
    return enumType;
  }
  if (auto it = defs_.inlines.find(e.text); it != defs_.inlines.end()) {
    if (!it->second.params.empty()) {
      arrayAsScalarError(e);
      return nullptr;
    }
    e.inlineValue = it->second.value;
    e.constValue = it->second.value->constValue;
    if (it->second.value->inMemory) e.inMemory = true;
    return it->second.type;
  }
  if (e.text.find('`') != std::string::npos || externs_.count(e.text)) {
    // Kernel data symbols: this kernel's kallsyms lists none, and BTF types
    // only per-CPU variables, so there is neither an address nor a type.
    kernelVariableError(e);
    return nullptr;
  }
  error("D_IDENT_UNDEF", e.loc, "failed to resolve " + e.text + ": Unknown variable name");
  return nullptr;
}

const Type* Checker::macro(Expr& e) {
  const std::string* value = macros_.find(e.text);
  static const std::string kZero = "0", kEmpty;
  if (!value && macros_.defaultArgs && std::isdigit(static_cast<unsigned char>(e.text[0]))) {
    value = e.isStringMacro ? &kEmpty : &kZero;
  }
  if (!value) {
    const bool numbered = std::isdigit(static_cast<unsigned char>(e.text[0]));
    error("D_MACRO_UNDEF", e.loc,
          std::string(numbered ? "macro argument $" : "macro variable $") +
              (e.isStringMacro ? "$" : "") + e.text + " is not defined");
    return nullptr;
  }
  // $$N, and $N whose value is not an integer, stand for a string.
  if (e.isStringMacro || !isIntegerText(*value)) {
    e.kind = ExprKind::StringLiteral;
    e.text = *value;
    return types_.boundedString(static_cast<uint32_t>(e.text.size() + 1));
  }
  // An integer: "-5" reads as the negation of the literal 5, as in D.
  bool negative = (*value)[0] == '-';
  std::string digits = value->substr((*value)[0] == '-' || (*value)[0] == '+' ? 1 : 0);
  e.kind = ExprKind::IntLiteral;
  e.intValue = std::strtoull(digits.c_str(), nullptr, 0);
  e.decimal = !(digits.size() > 1 && digits[0] == '0');
  const Type* t = intLiteral(e);
  if (t && negative) {
    t = types_.promote(t);
    e.constValue = convert(static_cast<int64_t>(0 - static_cast<uint64_t>(*e.constValue)), t);
  }
  return t;
}

// A unary operator applied to a thread-local, clause-local or associative
// array element that nothing has assigned yet makes it an int64_t, as
// illumos's dt_cook_op1 types an unreferenced variable: DTraceToolkit's
// iosnoop tests /!start[dev, blk]/ before another clause assigns it.
void Checker::declareUnreferenced(Expr& operand) {
  const std::string* scope = scopeOf(operand);
  bool unreferenced = false;
  if (scope) {
    unreferenced = *scope == "this" ? !symbols_.findClauseLocal(operand.text)
                                    : !symbols_.findThreadLocal(operand.text);
  } else if (operand.kind == ExprKind::Index && namesAssociative(*operand.operands[0])) {
    const Expr& name = *operand.operands[0];
    const std::string* arrayScope = scopeOf(name);
    unreferenced = arrayScope ? *arrayScope == "self" && !symbols_.findThreadLocal(name.text)
                              : !symbols_.findGlobal(name.text);
  }
  if (unreferenced) lvalueVariable(operand, types_.int64(), Op::PreInc);
}

const Type* Checker::unary(Expr& e) {
  Expr& operand = *e.operands[0];
  std::string opName = ast::opSpelling(e.op);
  switch (e.op) {
    case Op::PreInc:
    case Op::PreDec:
    case Op::PostInc:
    case Op::PostDec: {
      // dt_cook_op1 checks the operand's type before it asks for a
      // modifiable lvalue: "a"++ and execname++ are D_OP_SCALAR.
      const std::string notScalar = "operator " + opName + " requires operand of scalar type";
      const Variable* builtin =
          operand.kind == ExprKind::Identifier ? builtinVariable(operand.text) : nullptr;
      if (operand.kind == ExprKind::StringLiteral || (builtin && !builtin->type->isScalar())) {
        error("D_OP_SCALAR", e.loc, notScalar);
        return nullptr;
      }
      // ++ on a variable not yet seen declares it as an int64_t, as DTrace does.
      const Type* t = lvalueType(operand, types_.int64(), e.op);
      if (!t) return nullptr;
      if (!t->isScalar()) {
        error("D_OP_SCALAR", e.loc, notScalar);
        return nullptr;
      }
      if (isVoidOrFunctionPointer(t)) {
        error("D_OP_VFPTR", e.loc, "operator " + opName + " requires an operand of known size");
        return nullptr;
      }
      return t;
    }
    default:
      break;
  }
  declareUnreferenced(operand);
  const Type* t = expr(operand);
  if (!t) return nullptr;
  if (e.op == Op::Plus || e.op == Op::Negate || e.op == Op::BitNot) {
    promoteBitField(e.operands[0]);
    t = e.operands[0]->type;
  }
  switch (e.op) {
    case Op::Plus:
    case Op::Negate:
    case Op::BitNot:
      if (!t->isInteger()) {
        error(e.op == Op::BitNot ? "D_OP_INT" : "D_OP_ARITH", e.loc,
              "operator " + opName + " requires an operand of " +
                  (e.op == Op::BitNot ? "integral" : "arithmetic") + " type");
        return nullptr;
      }
      t = types_.promote(t);
      break;
    case Op::LogicalNot:
      if (!t->isScalar()) {
        error("D_OP_SCALAR", e.loc, "operator ! requires an operand of scalar type");
        return nullptr;
      }
      t = types_.intType();
      break;
    case Op::Deref:
      return dereference(e);
    case Op::AddressOf:
      return addressOf(e);
    default:
      error("D_SYNTAX", e.loc, "unexpected operator " + opName);
      return nullptr;
  }
  e.type = t;
  fold(e);
  return t;
}

const Type* Checker::binary(Expr& e) {
  const Type* a = expr(*e.operands[0]);
  if (!a) return nullptr;
  const Type* b = expr(*e.operands[1]);
  if (!b) return nullptr;
  std::string opName = ast::opSpelling(e.op);
  if (a->isAggregation() || b->isAggregation()) {
    error("D_OP_INCOMPAT", e.loc,
          "operands have incompatible types: " + quoted(a) + " " + opName + " " + quoted(b));
    return nullptr;
  }
  const Type* t = nullptr;
  if (e.op != Op::Comma && !isLogical(e.op)) {
    promoteBitField(e.operands[0]);
    promoteBitField(e.operands[1]);
    a = e.operands[0]->type;
    b = e.operands[1]->type;
  }
  if (e.op == Op::Comma) {
    if (isActionCall(*e.operands[0]) || isActionCall(*e.operands[1])) {
      error("D_OP_ACT", e.loc, "operator , operands cannot be actions");
      return nullptr;
    }
    t = b;
  } else if (isLogical(e.op)) {
    if (!a->isScalar() || !b->isScalar()) {
      error("D_OP_SCALAR", e.loc, "operator " + opName + " requires operands of scalar type");
      return nullptr;
    }
    t = types_.intType();
  } else if (isComparison(e.op)) {
    // An unset string is "": 0 and NULL compare as the empty string.
    for (size_t i : {0, 1}) {
      if (e.operands[1 - i]->type->isString() && isNullConstant(*e.operands[i])) {
        replaceWithEmptyString(e.operands[i]);
      }
    }
    a = e.operands[0]->type;
    b = e.operands[1]->type;
    bool ok =
        (a->isScalar() && b->isScalar() && compatible(a, b)) ||
        (a->isInteger() && b->isInteger()) ||
        ((a->isString() || b->isString()) && a->isStringCompatible() && b->isStringCompatible()) ||
        pointerCompatible(*e.operands[0], *e.operands[1]);
    if (!ok) {
      error("D_OP_INCOMPAT", e.loc,
            "operands have incompatible types: " + quoted(a) + " " + opName + " " + quoted(b));
      return nullptr;
    }
    t = types_.intType();
  } else {
    bool integral = needsIntegers(e.op);
    if (!a->isInteger() || !b->isInteger()) {
      // s + i is the string from its character i on, as Oracle's DTrace
      // offsets a string as a char pointer (illumos refuses it).
      if (e.op == Op::Add && (a->isString() ? b->isInteger() : a->isInteger() && b->isString())) {
        if (b->isString()) std::swap(e.operands[0], e.operands[1]);
        becomeInternalCall(e, ir::Subroutine::StringOffset);
        e.type = types_.stringType();
        return e.type;
      }
      // - on a string: DTrace says the operand types do not match.
      if ((a->isString() || b->isString()) && (e.op == Op::Add || e.op == Op::Sub)) {
        error("D_OP_INCOMPAT", e.loc,
              "operands have incompatible types: " + quoted(a) + " " + opName + " " + quoted(b));
        return nullptr;
      }
      if (a->isString() || b->isString() || integral) {
        error(integral ? "D_OP_INT" : "D_OP_ARITH", e.loc,
              "operator " + opName + " requires operands of " +
                  (integral ? "integral" : "arithmetic") + " type");
        return nullptr;
      }
      return pointerArithmetic(e);
    }
    t = (e.op == Op::Shl || e.op == Op::Shr) ? types_.promote(a) : types_.arithmeticResult(a, b);
    if ((e.op == Op::Div || e.op == Op::Mod) && e.operands[1]->constValue == 0) {
      error("D_DIV_ZERO", e.loc, "expression contains division by zero");
      return nullptr;
    }
  }
  e.type = t;
  fold(e);
  return t;
}

const Type* Checker::ternary(Expr& e) {
  const Type* c = expr(*e.operands[0]);
  if (!c) return nullptr;
  if (!c->isScalar()) {
    error("D_OP_SCALAR", e.loc, "operator ?: expression must be of scalar type");
    return nullptr;
  }
  const Type* a = expr(*e.operands[1]);
  if (!a) return nullptr;
  const Type* b = expr(*e.operands[2]);
  if (!b) return nullptr;
  // dt_cook_op3's words, which name no types.
  if (a->isAggregation() || b->isAggregation()) {
    error("D_OP_DYN", e.loc, "operator ?: operands cannot be of dynamic type");
    return nullptr;
  }
  const Type* t = nullptr;
  if (a->isInteger() && b->isInteger()) {
    t = types_.arithmeticResult(a, b);
  } else if ((a->isString() || b->isString()) && a->isStringCompatible() &&
             b->isStringCompatible()) {
    t = a->isString() && b->isString() ? (a->size >= b->size ? a : b) : types_.stringType();
  } else if (a == b) {
    t = a;
  } else if (pointerCompatible(*e.operands[1], *e.operands[2], &t)) {
    if (t->isArray()) t = types_.pointerTo(t->target);  // an array operand stands for its address
  } else {
    error("D_OP_INCOMPAT", e.loc, "operator ?: operands must have compatible types");
    return nullptr;
  }
  if (isActionCall(*e.operands[1]) || isActionCall(*e.operands[2])) {
    error("D_OP_ACT", e.loc, "action cannot be used in a conditional context");
    return nullptr;
  }
  e.type = t;
  fold(e);
  return t;
}

const Type* Checker::cast(Expr& e) {
  const Type* to = resolveTypeName(*e.typeName);
  if (!to) return nullptr;
  const Type* from = expr(*e.operands[0]);
  if (!from) return nullptr;
  // The target as written: `(uintptr_t)` names uintptr_t, as CTF would.
  const std::string spelled = spelledTypeName(types_, e.typeName->spec, to);
  const std::string target = spelled.empty() ? quoted(to) : "\"" + spelled + "\"";
  // A translated pointer's inline (curpsinfo) has its declared pointer
  // type and casts to a scalar as its translator's input; only a bare
  // xlate <T *> (x) has none (dt_cook_op2, DT_TOK_LPAR).
  const Expr& operand = *e.operands[0];
  const bool bareXlate = operand.kind == ExprKind::Xlate && operand.type->isPointer();
  if (isTranslatedPointer(operand) && !to->isVoid() && (bareXlate || !to->isScalar())) {
    error("D_CAST_INVAL", e.loc,
          "invalid cast expression: \"pointer to translated data\" to " + target);
    return nullptr;
  }
  // illumos's rules: between scalars, from an array to a pointer, anything
  // to void, and (D's own) from a scalar, pointer or string to a string.
  const bool toString =
      to->isString() && (from->isScalar() || from->isPointerLike() || from->isString());
  const bool ok = (to->isScalar() && from->isScalar()) || to->isVoid() ||
                  (to->isPointer() && from->isArray()) || toString;
  if (!ok && from->isStruct() && compatible(to, from)) {
    // A struct or union cast to its own type is the value itself.
    ast::ExprPtr operand = std::move(e.operands[0]);
    e = std::move(*operand);
    return e.type;
  }
  if (!ok) {
    error("D_CAST_INVAL", e.loc, "invalid cast expression: " + quoted(from) + " to " + target);
    return nullptr;
  }
  if (toString) {
    // (string)x reads the string at address x: stringof's meaning.
    e.kind = ExprKind::Stringof;
    return from->isString() ? from : types_.stringType();
  }
  e.type = to;
  fold(e);
  return to;
}

}  // namespace dtrace::sema
