// Type checks of calls to DTrace's subroutines (strlen, copyinstr, ...):
// arity and argument types against each prototype, and the result type.
// Which subroutine a call names is resolved once, to ir::Subroutine.
#include "ir/subroutine.h"
#include "sema/checker.h"
#include "sema/identifier_versions.h"

namespace dtrace::sema {

using ast::Expr;
using ast::ExprKind;
using S = ir::Subroutine;

namespace {

// Standard DTrace actions and subroutines this implementation lacks so far:
// refused by name before their arguments are checked, so that printa(@a)
// does not first complain about the aggregation.
}  // namespace

bool isUnavailableDestructive(std::string_view name) {
  const ir::SubroutineInfo* s = ir::findSubroutine(name);
  return s && s->unavailable && s->destructive;
}

bool isFunctionName(std::string_view name) {
  return ir::findSubroutine(name) || isActionName(name) || isAggregatingFunction(name);
}

void Checker::becomeInternalCall(Expr& e, ir::Subroutine subr) {
  e.kind = ExprKind::Call;
  e.text = ir::subroutineInfo(subr).name;
  e.subroutine = subr;
}

const Type* Checker::call(Expr& e) {
  // What string indexing and offsets became when first checked (a clause
  // may be checked twice).
  if (e.subroutine && ir::subroutineInfo(*e.subroutine).internal) {
    return *e.subroutine == S::StringCharacter ? types_.charType()
           : *e.subroutine == S::StringOffset  ? types_.stringType()
                                               : e.type;
  }
  if (introducedIn(e.text) > version_) {  // not yet in the program's D version
    error("D_FUNC_UNDEF", e.loc, "undefined function name: " + e.text);
    return nullptr;
  }
  if (isActionName(e.text)) {
    // Checked as a void function first: errors in its arguments, or in what
    // uses its value, are the ones DTrace reports.
    if (!checkAction(e)) return nullptr;
    if (!nestedAction_) nestedAction_ = &e;
    // stack(), sym() and their kin have a value (their record field).
    return isCodeAddressCall(e) ? e.type : types_.voidType();
  }
  if (isAggregatingFunction(e.text)) {
    error("D_CG_EXPR", e.loc,
          "aggregating function " + e.text +
              "( ) may not be called from a D expression (D program context required)");
    return nullptr;
  }
  if (const ir::SubroutineInfo* info = ir::findSubroutine(e.text)) e.subroutine = info->subr;
  if (!arraysAsPointers(e)) return nullptr;
  return subroutine(e);
}

// An array passed where a subroutine takes a void * is its address, as
// illumos's dt_node_is_argcompat allows: the argument becomes (void *)a.
bool Checker::arraysAsPointers(Expr& e) {
  if (!e.subroutine) return true;
  const uint8_t voidPointers = ir::subroutineInfo(*e.subroutine).voidPointerArgs;
  for (size_t i = 0; i < e.operands.size() && i < 8; i++) {
    if (!(voidPointers & (1u << i))) continue;
    ast::ExprPtr& arg = e.operands[i];
    const Type* t = expr(*arg);
    if (!t) return false;
    if (!t->isArray()) continue;
    auto cast = std::make_unique<Expr>(ExprKind::Cast, arg->loc);
    cast->typeName = std::make_shared<ast::TypeName>();
    cast->typeName->spec.basicWords = {"void"};
    cast->typeName->declarator.steps.emplace_back();  // a pointer step
    cast->typeName->loc = arg->loc;
    cast->operands.push_back(std::move(arg));
    arg = std::move(cast);
  }
  return true;
}

bool Checker::prototypeArity(Expr& e, size_t min, size_t max) {
  const size_t n = e.operands.size();
  if (n >= min && n <= max) return true;
  // As dt_idcook_sign words it: optional arguments make it "at least".
  std::string expected = min == max ? std::to_string(min) : "at least " + std::to_string(min);
  return error("D_PROTO_LEN", e.loc,
               e.text + "( ) prototype mismatch: " + std::to_string(n) + " arg" +
                   (n == 1 ? "" : "s") + " passed, " + expected + " expected");
}

bool Checker::prototypeArg(Expr& e, size_t i, bool ok, const char* prototype) {
  if (ok) {
    castToParameter(e.operands[i], prototype);
    return true;
  }
  const Expr& a = *e.operands[i];
  return error("D_PROTO_ARG", a.loc,
               e.text + "( ) argument #" + std::to_string(i + 1) +
                   " is incompatible with prototype:\n\tprototype: " + prototype +
                   "\n\t argument: " + a.type->name);
}

// An integer argument is converted to an int or char parameter's type, as
// dt_cg_arglist casts each argument to its prototype (dt_cg_typecast):
// substr(s, 0x100000001) starts at 1.
void Checker::castToParameter(ast::ExprPtr& arg, std::string_view parameter) {
  const Type* to = parameter == "int"    ? types_.intType()
                   : parameter == "char" ? types_.charType()
                                         : nullptr;
  const Type* from = arg->type;
  if (!to || !from || !from->isInteger() || from == to) return;
  auto cast = std::make_unique<Expr>(ast::ExprKind::Cast, arg->loc);
  cast->typeName = std::make_shared<ast::TypeName>();
  cast->typeName->spec.basicWords = {std::string(parameter)};
  cast->typeName->loc = arg->loc;
  cast->type = to;
  if (arg->constValue) {
    cast->constValue = to == types_.charType() ? static_cast<int8_t>(*arg->constValue)
                                               : static_cast<int32_t>(*arg->constValue);
  }
  cast->operands.push_back(std::move(arg));
  arg = std::move(cast);
}

// A "const char *" parameter (dt_node_is_argcompat) takes a D string, a
// char pointer or array, a void pointer or the constant 0; all but the
// string are then read as the string at that address, so a bad one faults
// at run time as in DTrace.
bool Checker::stringArg(Expr& e, size_t i) {
  ast::ExprPtr& a = e.operands[i];
  if (a->type->isString()) return true;
  if (!assignable(types_.pointerTo(types_.charType()), *a)) {
    return prototypeArg(e, i, false, "const char *");
  }
  auto read = std::make_unique<Expr>(ast::ExprKind::Stringof, a->loc);
  read->type = types_.stringType();
  read->operands.push_back(std::move(a));
  a = std::move(read);
  return true;
}

// A subroutine Linux cannot give: its prototype, then the refusal.
const Type* Checker::unavailableSubroutine(Expr& e) {
  const ir::SubroutineInfo& info = ir::subroutineInfo(*e.subroutine);
  const auto& params = info.unavailable->params;
  if (!prototypeArity(e, params.size(), params.size())) return nullptr;
  for (size_t i = 0; i < params.size(); i++) {
    const Type* t = e.operands[i]->type;
    const std::string_view p = params[i];
    const bool ok = p == "char *"   ? t->isStringCompatible()
                    : p == "void *" ? t->isPointerLike() || t->isString() ||
                                          (t->isInteger() && e.operands[i]->constValue == 0)
                    : p.ends_with('*')
                        ? t->isPointer() || (t->isInteger() && e.operands[i]->constValue == 0)
                        : t->isInteger();
    if (!prototypeArg(e, i, ok, params[i])) return nullptr;
  }
  std::string message = e.text + "( ) is not available on Linux";
  if (info.unavailable->reason) message.append(": ").append(info.unavailable->reason);
  // A destructive one (all return void) is a valid D action: DTrace's rules
  // on actions, such as none after speculate(), are checked before it is
  // refused, as illumos refuses it only when tracing is enabled.
  if (info.destructive) {
    if (!unavailableAction_) unavailableAction_ = {e.loc, std::move(message)};
    return types_.voidType();
  }
  error("D_FUNC_UNDEF", e.loc, std::move(message));
  return nullptr;
}

// DTrace's subroutines that Linux gives a meaning, with their prototypes;
// the arity is the table's.
const Type* Checker::subroutine(Expr& e) {
  auto& args = e.operands;
  for (auto& a : args) {
    if (!expr(*a)) return nullptr;
  }
  if (!e.subroutine) return notASubroutine(e);
  const ir::SubroutineInfo& info = ir::subroutineInfo(*e.subroutine);
  if (info.unavailable) return unavailableSubroutine(e);
  if (!prototypeArity(e, info.minArgs, info.maxArgs)) return nullptr;
  auto argIs = [&](size_t i, bool ok, const char* prototype) {
    return prototypeArg(e, i, ok, prototype);
  };
  switch (*e.subroutine) {
    case S::Copyinstr:
      if (!argIs(0, args[0]->type->isScalar(), "uintptr_t")) return nullptr;
      if (args.size() == 2 && !argIs(1, args[1]->type->isInteger(), "size_t")) return nullptr;
      return types_.stringType();
    case S::Strlen:
      if (!stringArg(e, 0)) return nullptr;
      return types_.lookup("size_t");
    // Byte order: network order is big-endian; x86 is little-endian.
    case S::Htons:
    case S::Ntohs:
    case S::Htonl:
    case S::Ntohl:
    case S::Htonll:
    case S::Ntohll: {
      const S s = *e.subroutine;
      const char* typeName = s == S::Htons || s == S::Ntohs   ? "uint16_t"
                             : s == S::Htonl || s == S::Ntohl ? "uint32_t"
                                                              : "uint64_t";
      if (!argIs(0, args[0]->type->isInteger(), typeName)) return nullptr;
      return types_.lookup(typeName);
    }
    case S::Strjoin:
      if (!stringArg(e, 0) || !stringArg(e, 1)) return nullptr;
      return types_.stringType();
    case S::Substr:
      if (!stringArg(e, 0) || !argIs(1, args[1]->type->isInteger(), "int") ||
          (args.size() == 3 && !argIs(2, args[2]->type->isInteger(), "int"))) {
        return nullptr;
      }
      return types_.stringType();
    case S::Lltostr:  // an optional base, 2 to 36, checked at run time
      if (!argIs(0, args[0]->type->isInteger(), "int64_t")) return nullptr;
      if (args.size() == 2 && !argIs(1, args[1]->type->isInteger(), "int")) return nullptr;
      // "-9223372036854775808"; in base 2 up to 64 digits
      return types_.boundedString(args.size() == 2 ? 65 : 21);
    case S::Toupper:
    case S::Tolower:
      if (!stringArg(e, 0)) return nullptr;
      return types_.stringType();
    case S::Rand:
    case S::Speculation:
      return types_.intType();
    case S::Alloca:
    case S::Copyin:
    case S::Copyinto:
    case S::Bcopy:
    case S::Progenyof:
    case S::Getmajor:
    case S::Getminor:
      return memorySubroutine(e);
    default:
      return stringSubroutine(e);
  }
}

// A name that is something else: DTrace says what kind of thing it is.
const Type* Checker::notASubroutine(Expr& e) {
  if (builtinVariable(e.text) || symbols_.findGlobal(e.text)) {
    const Variable* v = symbols_.findGlobal(e.text);
    const char* kind = v && v->isKeyed() ? "associative array" : "scalar";
    error("D_FUNC_IDKIND", e.loc,
          std::string(kind) + " '" + e.text + "' may not be referenced as a function");
    return nullptr;
  }
  error("D_FUNC_UNDEF", e.loc, "undefined function name: " + e.text);
  return nullptr;
}

// String subroutines: "const char *" parameters take D strings.
const Type* Checker::stringSubroutine(Expr& e) {
  auto& args = e.operands;
  auto isString = [&](size_t i) { return stringArg(e, i); };
  auto isInteger = [&](size_t i) { return args[i]->type->isInteger(); };
  switch (*e.subroutine) {
    case S::Index:
    case S::Rindex:
      if (isString(0) && isString(1) &&
          (args.size() == 2 || prototypeArg(e, 2, isInteger(2), "int"))) {
        return types_.intType();
      }
      return nullptr;
    case S::Strchr:
    case S::Strrchr:
      if (isString(0) && prototypeArg(e, 1, isInteger(1), "char")) return types_.stringType();
      return nullptr;
    case S::Strstr:
    case S::Json:
      if (isString(0) && isString(1)) return types_.stringType();
      return nullptr;
    case S::Strtok:  // strtok(NULL, delims) goes on with the previous string
      if (((args[0]->constValue && *args[0]->constValue == 0) || isString(0)) && isString(1)) {
        return types_.stringType();
      }
      return nullptr;
    case S::Basename:
    case S::Dirname:
    case S::Cleanpath:
      if (isString(0)) return types_.stringType();
      return nullptr;
    case S::Strtoll:
      if (isString(0) && (args.size() == 1 || prototypeArg(e, 1, isInteger(1), "int"))) {
        return types_.int64();
      }
      return nullptr;
    case S::InetNtoa:
    case S::InetNtoa6: {
      // Oracle's inet_ntoa6(addr, strict): a non-zero integer constant asks
      // for inet_ntop()'s IPv4-in-IPv6 forms (::ffff:1.2.3.4).
      const bool ntoa6 = *e.subroutine == S::InetNtoa6;
      if (prototypeArg(e, 0, args[0]->type->isScalar(), ntoa6 ? "in6_addr_t *" : "ipaddr_t *") &&
          (args.size() == 1 ||
           prototypeArg(e, 1, isInteger(1) && args[1]->constValue, "integer constant"))) {
        return types_.boundedString(46);  // INET6_ADDRSTRLEN
      }
      return nullptr;
    }
    case S::LinkNtop:  // Oracle's: 20 bytes of InfiniBand at most
      if (prototypeArg(e, 0, isInteger(0), "int") &&
          prototypeArg(e, 1, args[1]->type->isScalar(), "void *")) {
        return types_.boundedString(60);
      }
      return nullptr;
    case S::InetNtop:
      if (prototypeArg(e, 0, isInteger(0), "int") &&
          prototypeArg(e, 1, args[1]->type->isScalar(), "void *")) {
        return types_.boundedString(46);
      }
      return nullptr;
    default:
      return notASubroutine(e);
  }
}

// Scratch memory, copies from user and kernel memory, process ancestry and
// device numbers.
const Type* Checker::memorySubroutine(Expr& e) {
  auto& args = e.operands;
  auto isScalar = [&](size_t i) { return args[i]->type->isScalar(); };
  auto isInteger = [&](size_t i) { return args[i]->type->isInteger(); };
  const Type* voidPointer = types_.pointerTo(types_.voidType());
  switch (*e.subroutine) {
    case S::Alloca: {
      if (!prototypeArg(e, 0, isInteger(0), "size_t")) return nullptr;
      // As Oracle's DTrace: a constant size the scratch space cannot hold.
      const std::optional<int64_t> size = args[0]->constValue;
      if (size && static_cast<uint64_t>(*size) > scratchSize_) {
        error("D_ALLOCA_SIZE", e.loc,
              "alloca(" + std::to_string(static_cast<uint64_t>(*size)) +
                  ") size larger than scratchsize " + std::to_string(scratchSize_));
        return nullptr;
      }
      return voidPointer;
    }
    case S::Copyin:
      if (prototypeArg(e, 0, isScalar(0), "uintptr_t") &&
          prototypeArg(e, 1, isInteger(1), "size_t")) {
        return voidPointer;
      }
      return nullptr;
    case S::Copyinto:
      if (prototypeArg(e, 0, isScalar(0), "uintptr_t") &&
          prototypeArg(e, 1, isInteger(1), "size_t") && prototypeArg(e, 2, isScalar(2), "void *")) {
        return types_.voidType();
      }
      return nullptr;
    case S::Bcopy:
      if (prototypeArg(e, 0, isScalar(0) || args[0]->type->isString(), "void *") &&
          prototypeArg(e, 1, isScalar(1), "void *") && prototypeArg(e, 2, isInteger(2), "size_t")) {
        return types_.voidType();
      }
      return nullptr;
    case S::Progenyof:
      if (prototypeArg(e, 0, isInteger(0), "pid_t")) return types_.intType();
      return nullptr;
    case S::Getmajor:
    case S::Getminor:
      if (prototypeArg(e, 0, isInteger(0), "dev_t")) return types_.uintType();
      return nullptr;
    default:
      return notASubroutine(e);
  }
}

}  // namespace dtrace::sema
