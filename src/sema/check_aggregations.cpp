// @name[keys] = func(args): the aggregating function's prototype, its
// constant parameters (DTrace's D_LQUANT_* and D_LLQUANT_* rules), the
// keys, and agreement with earlier assignments to the same aggregation.

#include "sema/checker.h"
#include "sema/identifier_versions.h"

namespace dtrace::sema {

using ast::Expr;
using ast::ExprKind;
using ast::Op;

namespace {

std::string args(size_t n) { return std::to_string(n) + " arg" + (n == 1 ? "" : "s"); }

}  // namespace

bool isAggregatingFunction(std::string_view name, ir::AggFunc* func) {
  const ir::AggFuncInfo* info = ir::findAggFunc(name);
  if (info && func) *func = info->func;
  return info != nullptr;
}

// An integer constant parameter of lquantize/llquantize: its value, or an
// error with `typeTag` when it is not a constant.
bool Checker::aggregationParameter(const Expr& fn, size_t i, const char* typeTag, const char* what,
                                   int64_t* value) {
  const Expr& a = *fn.operands[i];
  if (!a.constValue || !a.type || !a.type->isInteger()) {
    return error(typeTag, a.loc,
                 fn.text + "( ) argument #" + std::to_string(i) + " must be " + what);
  }
  *value = *a.constValue;
  return true;
}

bool Checker::lquantizeParams(Expr& fn, ir::AggParams& p) {
  const std::string name = fn.text + "( ) ";
  int64_t base, limit, step = 1;
  if (!aggregationParameter(fn, 1, "D_LQUANT_BASETYPE", "an integer constant", &base)) return false;
  if (base < INT32_MIN || base > INT32_MAX) {
    return error("D_LQUANT_BASEVAL", fn.operands[1]->loc,
                 name + "argument #1 must be a 32-bit quantity");
  }
  if (!aggregationParameter(fn, 2, "D_LQUANT_LIMTYPE", "an integer constant", &limit)) return false;
  if (limit < INT32_MIN || limit > INT32_MAX) {
    return error("D_LQUANT_LIMVAL", fn.operands[2]->loc,
                 name + "argument #2 must be a 32-bit quantity");
  }
  if (limit < base) {
    return error("D_LQUANT_MISMATCH", fn.loc,
                 name + "base (argument #1) must be less than limit (argument #2)");
  }
  if (fn.operands.size() > 3) {
    const Expr& s = *fn.operands[3];
    if (!s.constValue || !s.type->isInteger() || *s.constValue <= 0) {
      return error("D_LQUANT_STEPTYPE", s.loc,
                   name + "argument #3 must be a non-zero positive integer constant");
    }
    step = *s.constValue;
    if (step > UINT16_MAX) {
      return error("D_LQUANT_STEPVAL", s.loc, name + "argument #3 must be a 16-bit quantity");
    }
  }
  const int64_t levels = (limit - base) / step;
  if (levels == 0) {
    return error("D_LQUANT_STEPLARGE", fn.loc,
                 name + "step (argument #3) too large: must have at least one quantization level");
  }
  if (levels > UINT16_MAX) {
    return error("D_LQUANT_STEPSMALL", fn.loc,
                 name +
                     "step (argument #3) too small: number of quantization levels must be a "
                     "16-bit quantity");
  }
  p.base = base;
  p.step = step;
  p.levels = static_cast<uint32_t>(levels);
  return true;
}

// illumos's dt_compile_agg rules for llquantize(value, factor, low, high,
// steps): each parameter an unsigned 16-bit constant, then the relations
// between them, each with its own tag.
bool Checker::llquantizeParams(Expr& fn, ir::AggParams& p) {
  const std::string name = fn.text + "( ) ";
  static constexpr struct {
    const char* what;
    const char* typeTag;
    const char* valueTag;
  } kParams[] = {
      {"factor", "D_LLQUANT_FACTORTYPE", "D_LLQUANT_FACTORVAL"},
      {"low magnitude", "D_LLQUANT_LOWTYPE", "D_LLQUANT_LOWVAL"},
      {"high magnitude", "D_LLQUANT_HIGHTYPE", "D_LLQUANT_HIGHVAL"},
      {"linear steps per magnitude", "D_LLQUANT_NSTEPTYPE", "D_LLQUANT_NSTEPVAL"},
  };
  uint64_t v[4];
  for (size_t i = 0; i < 4; i++) {
    const Expr& a = *fn.operands[i + 1];
    const std::string arg = "argument #" + std::to_string(i + 1) + " (" + kParams[i].what + ")";
    if (!a.constValue || !a.type || !a.type->isInteger()) {
      return error(kParams[i].typeTag, a.loc, name + arg + " must be an integer constant");
    }
    v[i] = static_cast<uint64_t>(*a.constValue);
    if (v[i] > UINT16_MAX) {
      return error(kParams[i].valueTag, a.loc, name + arg + " must be an unsigned 16-bit quantity");
    }
  }
  const uint64_t factor = v[0], low = v[1], high = v[2], steps = v[3];
  if (factor < 2) {
    return error("D_LLQUANT_FACTORSMALL", fn.loc,
                 name + "factor (argument #1) must be two or more");
  }
  if (low >= high) {
    return error("D_LLQUANT_MAGRANGE", fn.loc,
                 name +
                     "high magnitude (argument #3) must be greater than low magnitude "
                     "(argument #2)");
  }
  if (steps < factor) {
    return error("D_LLQUANT_FACTORNSTEPS", fn.loc,
                 name +
                     "factor (argument #1) must be less than or equal to the number of linear "
                     "steps per magnitude (argument #4)");
  }
  // The steps divide the first power of the factor that is not below them.
  uint64_t power = factor;
  while (power < steps) power *= factor;
  if (steps % factor != 0 || power % steps != 0) {
    return error("D_LLQUANT_FACTOREVEN", fn.loc,
                 name +
                     "factor (argument #1) must evenly divide the number of steps per "
                     "magnitude (argument #4), and the number of steps per magnitude must "
                     "evenly divide a power of the factor");
  }
  // factor^high must fit in 64 bits (the buckets above it are bounded by
  // overflow instead).
  for (uint64_t i = 0, order = 1; i < high; i++) {
    if (order > UINT64_MAX / factor) {
      return error("D_LLQUANT_MAGTOOBIG", fn.loc,
                   name + "factor (" + std::to_string(factor) +
                       ") raised to power of high magnitude (" + std::to_string(high) +
                       ") overflows 64-bits");
    }
    order *= factor;
  }
  p.factor = static_cast<uint32_t>(factor);
  p.lowMagnitude = static_cast<uint32_t>(low);
  p.highMagnitude = static_cast<uint32_t>(high);
  p.steps = static_cast<uint32_t>(steps);
  return true;
}

// A second lquantize/llquantize of one aggregation must use the same
// parameters (DTrace compares the first use's with each later one).
bool Checker::sameParams(const Expr& fn, const Variable& agg, const ir::AggParams& p) {
  const ir::AggParams& o = agg.aggParams;
  if (o == p) return true;
  auto mismatch = [&](const char* tag, const std::string& what, int64_t expected, int64_t found) {
    return error(tag, fn.loc,
                 fn.text + what + " doesn't match previous declaration: expected " +
                     std::to_string(expected) + ", found " + std::to_string(found));
  };
  if (agg.aggFunc == ir::AggFunc::Lquantize) {
    if (o.base != p.base)
      return mismatch("D_LQUANT_MATCHBASE", "( ) base (argument #1)", o.base, p.base);
    if (o.levels * o.step != p.levels * p.step) {
      return mismatch("D_LQUANT_MATCHLIM", "( ) limit (argument #2)", o.base + o.levels * o.step,
                      p.base + p.levels * p.step);
    }
    return mismatch("D_LQUANT_MATCHSTEP", "( ) step (argument #3)", o.step, p.step);
  }
  // The first parameter that differs, named as dt_compile_agg names it.
  if (o.factor != p.factor) {
    return mismatch("D_LLQUANT_FACTORMATCH", "( ) factor (argument #1)", o.factor, p.factor);
  }
  if (o.lowMagnitude != p.lowMagnitude) {
    return mismatch("D_LLQUANT_LOWMATCH", "( ) low magnitude (argument #2)", o.lowMagnitude,
                    p.lowMagnitude);
  }
  if (o.highMagnitude != p.highMagnitude) {
    return mismatch("D_LLQUANT_HIGHMATCH", "( ) high magnitude (argument #3)", o.highMagnitude,
                    p.highMagnitude);
  }
  return mismatch("D_LLQUANT_NSTEPMATCH", "( ) linear steps per magnitude (argument #4)", o.steps,
                  p.steps);
}

bool Checker::checkAggregationAssign(Expr& assign) {
  Expr& target = *assign.operands[0];
  Expr& value = *assign.operands[1];
  if (assign.op != Op::Assign) {
    return error("D_OP_INCOMPAT", assign.loc,
                 std::string("operator ") + ast::opSpelling(assign.op) +
                     " may not be applied to an aggregation");
  }
  Expr& ref = target.kind == ExprKind::Index ? *target.operands[0] : target;
  const ir::AggFuncInfo* info =
      value.kind == ExprKind::Call ? ir::findAggFunc(value.text) : nullptr;
  if (info && introducedIn(value.text) > version_) {  // not yet in the program's D version
    return error("D_FUNC_UNDEF", value.loc, "undefined function name: " + value.text);
  }
  if (!info && value.kind == ExprKind::Call && !isFunctionName(value.text)) {
    // dt_node_func() names what is not a function while parsing, before
    // the assignment is checked.
    notASubroutine(value);
    return false;
  }
  if (!info) {
    return error("D_AGG_FUNC", value.loc,
                 ref.text + " must be assigned the result of an aggregating function");
  }
  std::vector<const Type*> keyTypes;
  if (target.kind == ExprKind::Index) {
    if (!checkKeyCount(target)) return false;
    for (size_t i = 1; i < target.operands.size(); i++) {
      Expr& k = *target.operands[i];
      const Type* t = keyOrArgument(k);
      if (!t) return false;
      // A translated struct is a key by its translated bytes (@[*curpsinfo]);
      // an xlate<> expression or a translated pointer is not (dt_idcook_assc).
      if (t->isVoid() || t->isAggregation() || isTranslatedPointer(k) ||
          (k.kind == ExprKind::Xlate && k.translation)) {
        return keyTypeError(k, t, i, "aggregation");
      }
      keyTypes.push_back(t);
    }
  }
  // The prototype's count (dt_idcook_sign, while cooking): the fixed
  // arguments of the varargs ones (quantize, lquantize, llquantize), all of
  // the others'. Beyond the increment, dt_compile_agg's own words.
  const size_t n = value.operands.size();
  const bool varargs = info->maxArgs > info->minArgs;
  if (n < info->minArgs || (n > info->maxArgs && !varargs)) {
    return error("D_PROTO_LEN", value.loc,
                 value.text + "( ) prototype mismatch: " + args(n) + " passed, " +
                     std::to_string(info->minArgs) + " expected");
  }
  for (auto& a : value.operands) {
    if (!expr(*a) || !refuseTranslatedPointer(*a)) return false;
  }
  // lquantize's and llquantize's parameters are int32_t in the prototype.
  if (info->func == ir::AggFunc::Lquantize || info->func == ir::AggFunc::Llquantize) {
    const size_t parameters = info->func == ir::AggFunc::Lquantize ? 2 : 4;
    for (size_t i = 1; i <= parameters && i < n; i++) {
      if (!prototypeArg(value, i, value.operands[i]->type->isInteger(), "int32_t")) return false;
    }
  }
  if (n > info->maxArgs) {
    return errorOutsideRegion("D_PROTO_LEN", value.loc,
                              value.text + "( ) prototype mismatch: " + std::to_string(n) +
                                  " args passed, at most " + std::to_string(info->maxArgs) +
                                  " expected");
  }
  if (info->takesValue && !value.operands[0]->type->isScalar()) {
    return errorOutsideRegion("D_AGG_SCALAR", value.loc,
                              value.text + "( ) argument #1 must be of scalar type");
  }
  ir::AggParams params;
  if (info->func == ir::AggFunc::Lquantize && !lquantizeParams(value, params)) return false;
  if (info->func == ir::AggFunc::Llquantize && !llquantizeParams(value, params)) return false;
  if (info->hasIncrement && n == info->maxArgs && !value.operands.back()->type->isScalar()) {
    return errorOutsideRegion("D_PROTO_ARG", value.loc,
                              value.text + "( ) increment value (argument #" + std::to_string(n) +
                                  ") must be of scalar type");
  }

  std::string name = ref.text.size() > 1 ? ref.text.substr(1) : "";
  Variable* agg = symbols_.findAggregation(name);
  if (!agg || !agg->aggDefined) {
    if (!agg) agg = symbols_.addAggregation(name, ref.loc);
    agg->loc = ref.loc;
    agg->aggDefined = true;
    agg->aggFunc = info->func;
    agg->aggFuncName = value.text;
    agg->aggParams = params;
    agg->keyTypes = keyTypes;
    agg->type = info->takesValue ? value.operands[0]->type : types_.uint64();
  } else {
    if (agg->aggFunc != info->func) {
      return error("D_AGG_REDEF", assign.loc,
                   "aggregation redefined: " + ref.text + "\n\t current: " + ref.text + " = " +
                       value.text + "( )\n\tprevious: " + ref.text + " = " + agg->aggFuncName +
                       "( ) : line " + std::to_string(agg->loc.line));
    }
    if ((info->func == ir::AggFunc::Lquantize || info->func == ir::AggFunc::Llquantize) &&
        !sameParams(value, *agg, params)) {
      return false;
    }
    if (agg->keyTypes.size() != keyTypes.size()) {
      return error("D_PROTO_LEN", assign.loc,
                   ref.text + "[ ] prototype mismatch: " + std::to_string(keyTypes.size()) +
                       " key" + (keyTypes.size() == 1 ? "" : "s") + " passed, " +
                       std::to_string(agg->keyTypes.size()) + " expected");
    }
    for (size_t i = 0; i < keyTypes.size(); i++) {
      const Type* a = agg->keyTypes[i];
      const Type* b = keyTypes[i];
      // Stacks and symbols are keys only of their own kind.
      if (a->isString() != b->isString() || a->isCodeAddress() != b->isCodeAddress() ||
          (a->isCodeAddress() && a->codeKind != b->codeKind)) {
        return error("D_PROTO_ARG", target.operands[i + 1]->loc, keyMismatch(ref.text, i, a, b));
      }
      // A string key holds the longest string and a stack key the most
      // frames; an integer key keeps the type of its first use, as
      // DTrace's record layout does.
      if ((a->isString() || a->isCodeAddress()) && b->size > a->size) agg->keyTypes[i] = b;
    }
  }
  ref.variable = agg;
  assign.type = types_.voidType();
  return true;
}

// An aggregation named where a value is expected: only the actions on
// aggregations take one, every other use is refused by its context.
const Type* Checker::aggregationRef(Expr& ref) {
  const std::string name = ref.text.size() > 1 ? ref.text.substr(1) : "";
  ref.variable = symbols_.findAggregation(name);
  return types_.aggregationType();
}

// Do two aggregations printed together (printa(@a, @b)) have the same
// keys? dt_printa_validate's rules and words.
bool Checker::sameKeys(const Expr& first, const Expr& other) {
  const Variable& a = *first.variable;
  const Variable& b = *other.variable;
  auto keys = [](size_t n) { return std::to_string(n) + " key" + (n == 1 ? "" : "s"); };
  if (a.keyTypes.size() != b.keyTypes.size()) {
    return error("D_PRINTA_AGGKEY", other.loc,
                 "printa( ): " + first.text + " and " + other.text +
                     " do not have matching key signatures: " + first.text + " has " +
                     keys(a.keyTypes.size()) + ", " + other.text + " has " +
                     keys(b.keyTypes.size()));
  }
  for (size_t i = 0; i < a.keyTypes.size(); i++) {
    const Type* ka = a.keyTypes[i];
    const Type* kb = b.keyTypes[i];
    const bool compatible = ka->isString()    ? kb->isString()
                            : ka->isInteger() ? kb->isInteger()
                                              : ka->name == kb->name;
    if (compatible) continue;
    const std::string n = std::to_string(i + 1);
    // dt_printa_validate pads the bare names ("%9s key #%d").
    auto pad = [](const std::string& at) {
      const std::string s = at.size() > 1 ? at.substr(1) : "";
      return std::string(s.size() < 9 ? 9 - s.size() : 0, ' ') + s;
    };
    return error("D_PRINTA_AGGPROTO", other.loc,
                 "printa( ): " + other.text + "[ ] key #" + n + " is incompatible with " +
                     first.text + ":\n" + pad(first.text) + " key #" + n + ": " + ka->name + "\n" +
                     pad(other.text) + " key #" + n + ": " + kb->name);
  }
  return true;
}

// printa("format", @a, ...): the conversions take the keys of the first
// aggregation in order, and %@ its value (or the next aggregation's).
bool Checker::checkPrintaFormat(Expr& call, const Variable& first) {
  auto parsed = ir::PrintfFormat::parse(call.operands[0]->text);
  if (auto* err = std::get_if<ir::PrintfError>(&parsed)) {
    return error(err->tag.c_str(), call.loc, err->message);
  }
  std::vector<ir::PrintfArg> keys;
  for (const Type* t : first.keyTypes) keys.push_back(printfArgOf(t));
  // %@ takes the value: signed for every aggregating function but count()
  // (dt_printf_validate, given the first aggregation's function by
  // dt_action_printa).
  const bool counts = first.aggFunc == ir::AggFunc::Count;
  const ir::PrintfArg value{ir::PrintfArg::Class::Integer, 8, !counts,
                            counts ? "uint64_t" : "int64_t"};
  if (auto err = std::get<ir::PrintfFormat>(parsed).check(keys, "printa", value)) {
    return error(err->tag.c_str(), call.loc, err->message);
  }
  return true;
}

// printa, clear, trunc, normalize, denormalize and setopt, with the
// prototypes and messages of dt_cc.c's dt_action_* functions.
bool Checker::checkAggregationAction(Expr& call, ir::ActionKind kind) {
  auto& args = call.operands;
  const std::string& name = call.text;
  const size_t n = args.size();
  // dt_idcook_sign's words for D_PROTO_LEN; dt_cc.c's own checks always
  // say "args".
  auto mismatch = [&](const char* tag, const std::string& expected) {
    const bool plural = n != 1 || std::string_view(tag) != "D_PROTO_LEN";
    return error(tag, call.loc,
                 name + "( ) prototype mismatch: " + std::to_string(n) + " arg" +
                     (plural ? "s" : "") + " passed, " + expected + " expected");
  };
  // Argument i must be an aggregation that an earlier statement defined.
  auto aggregationArg = [&](size_t i, const char* argTag, const char* undefinedTag) {
    const Expr& a = *args[i];
    if (!a.type->isAggregation()) {
      return error(argTag, call.loc,
                   name + "( ) argument #" + std::to_string(i + 1) +
                       " is incompatible with prototype:\n\tprototype: aggregation\n\t "
                       "argument: " +
                       a.type->name);
    }
    if (!a.variable || !a.variable->aggDefined) {
      return error(undefinedTag, call.loc, "undefined aggregation: " + a.text);
    }
    return true;
  };
  auto scalarArg = [&](size_t i, const char* tag) {
    if (args[i]->type->isScalar()) return true;
    return error(tag, call.loc,
                 name + "( ) argument #" + std::to_string(i + 1) + " must be of scalar type");
  };
  switch (kind) {
    case ir::ActionKind::Printa: {
      if (n == 0) return mismatch("D_PROTO_LEN", "1");  // void(@, ...)
      const bool hasFormat = args[0]->kind == ExprKind::StringLiteral;
      const size_t first = hasFormat ? 1 : 0;
      if (n < first + 1) return mismatch("D_PRINTA_PROTO", std::to_string(first + 1));
      for (size_t i = first; i < n; i++) {
        if (!aggregationArg(i, "D_PRINTA_AGGARG", "D_PRINTA_AGGBAD")) return false;
        if (i > first && !sameKeys(*args[first], *args[i])) return false;
      }
      return !hasFormat || checkPrintaFormat(call, *args[first]->variable);
    }
    // clear, normalize, denormalize and trunc are void(...): the counts
    // and types are dt_action_clear's, _normalize's and _trunc's.
    case ir::ActionKind::Clear:
      if (n != 1) return mismatch("D_CLEAR_PROTO", "1");
      return aggregationArg(0, "D_CLEAR_AGGARG", "D_CLEAR_AGGBAD");
    case ir::ActionKind::Denormalize:
      if (n != 1) return mismatch("D_NORMALIZE_PROTO", "1");
      return aggregationArg(0, "D_NORMALIZE_AGGARG", "D_NORMALIZE_AGGBAD");
    case ir::ActionKind::Normalize:
      if (n != 2) return mismatch("D_NORMALIZE_PROTO", "2");
      return aggregationArg(0, "D_NORMALIZE_AGGARG", "D_NORMALIZE_AGGBAD") &&
             scalarArg(1, "D_NORMALIZE_SCALAR");
    case ir::ActionKind::Trunc:
      if (n < 1 || n > 2) return mismatch("D_TRUNC_PROTO", n < 1 ? "at least 1" : "no more than 2");
      return aggregationArg(0, "D_TRUNC_AGGARG", "D_TRUNC_AGGBAD") &&
             (n < 2 || scalarArg(1, "D_TRUNC_SCALAR"));
    case ir::ActionKind::Setopt:  // void(const char *, [const char *])
      if (n < 1 || n > 2) return mismatch("D_PROTO_LEN", n < 1 ? "at least 1" : "at most 2");
      for (size_t i = 0; i < n; i++) {
        if (!args[i]->type->isString() && !args[i]->type->isCharArray()) {
          return prototypeArg(call, i, false, "const char *");
        }
      }
      return true;
    default:
      return true;
  }
}

}  // namespace dtrace::sema
