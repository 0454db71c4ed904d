// Type checks of calls to DTrace's subroutines (strlen, copyinstr, ...):
// arity and argument types against each prototype, and the result type.
#include "sema/checker.h"

namespace dtrace::sema {

using ast::Expr;

namespace {

// DTrace subroutines Linux cannot give: destructive ones this kernel cannot
// perform safely (and why), and ones that read Solaris kernel objects
// (mutexes, rwlocks, STREAMS messages, devinfo nodes, file_t). They keep
// DTrace's prototypes, checked before the refusal, so that a wrong call
// gets DTrace's error.
struct UnavailableSubroutine {
  const char* name;
  std::vector<const char*> params;
  const char* reason;  // null: no more to say than "not available"
  bool destructive = false;
};

const UnavailableSubroutine* findUnavailable(std::string_view name) {
  static const char* const kNoUserWrites =
      "writing user memory (bpf_probe_write_user) is refused by kernel lockdown";
  static const UnavailableSubroutine kUnavailable[] = {
      {"copyout", {"void *", "uintptr_t", "size_t"}, kNoUserWrites, true},
      {"copyoutstr", {"char *", "uintptr_t", "size_t"}, kNoUserWrites, true},
      {"panic", {}, "a BPF program cannot panic the kernel", true},
      {"breakpoint", {}, "a BPF program cannot enter the kernel debugger", true},
      // The kernel's own mutex, as illumos names genunix`kmutex_t.
      {"mutex_owned", {"struct mutex *"}, nullptr},
      {"mutex_owner", {"struct mutex *"}, nullptr},
      {"mutex_type_adaptive", {"struct mutex *"}, nullptr},
      {"mutex_type_spin", {"struct mutex *"}, nullptr},
      {"rw_read_held", {"krwlock_t *"}, nullptr},
      {"rw_write_held", {"krwlock_t *"}, nullptr},
      {"rw_iswriter", {"krwlock_t *"}, nullptr},
      {"msgsize", {"mblk_t *"}, nullptr},
      {"msgdsize", {"mblk_t *"}, nullptr},
      {"getf", {"int"}, nullptr},
      {"ddi_pathname", {"void *", "int"}, nullptr},
  };
  for (const UnavailableSubroutine& u : kUnavailable) {
    if (name == u.name) return &u;
  }
  return nullptr;
}

// Standard DTrace actions and subroutines this implementation lacks so far:
// refused by name before their arguments are checked, so that printa(@a)
// does not first complain about the aggregation.
bool isUnsupportedYet(const std::string& name) {
  static const char* const kNames[] = {
      "json",
  };
  for (const char* n : kNames) {
    if (name == n) return true;
  }
  return false;
}

}  // namespace

bool isUnavailableDestructive(std::string_view name) {
  const UnavailableSubroutine* u = findUnavailable(name);
  return u && u->destructive;
}

bool isFunctionName(std::string_view name) {
  static const char* const kSubroutines[] = {
      "alloca",   "basename",    "bcopy",     "cleanpath",  "copyin",    "copyinstr",
      "copyinto", "dirname",     "getmajor",  "getminor",   "htonl",     "htonll",
      "htons",    "index",       "inet_ntoa", "inet_ntoa6", "inet_ntop", "link_ntop",
      "lltostr",  "ntohl",       "ntohll",    "ntohs",      "progenyof", "rand",
      "rindex",   "speculation", "strchr",    "strjoin",    "strlen",    "strrchr",
      "strstr",   "strtok",      "strtoll",   "substr",     "tolower",   "toupper",
  };
  for (const char* n : kSubroutines) {
    if (name == n) return true;
  }
  const std::string s(name);
  return isActionName(name) || isAggregatingFunction(name) || isUnsupportedYet(s) ||
         findUnavailable(name) != nullptr;
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
  const UnavailableSubroutine* u = findUnavailable(e.text);
  const auto& params = u->params;
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
  if (u->reason) message.append(": ").append(u->reason);
  // A destructive one (all return void) is a valid D action: DTrace's rules
  // on actions, such as none after speculate(), are checked before it is
  // refused, as illumos refuses it only when tracing is enabled.
  if (u->destructive) {
    if (!unavailableAction_) unavailableAction_ = {e.loc, std::move(message)};
    return types_.voidType();
  }
  error("D_FUNC_UNDEF", e.loc, std::move(message));
  return nullptr;
}

// DTrace's subroutines that Linux gives a meaning, with their prototypes.
const Type* Checker::subroutine(Expr& e) {
  auto& args = e.operands;
  if (isUnsupportedYet(e.text)) {
    error("D_UNSUPPORTED", e.loc, e.text + "( ) is not supported yet");
    return nullptr;
  }
  for (auto& a : args) {
    if (!expr(*a)) return nullptr;
  }
  if (findUnavailable(e.text)) return unavailableSubroutine(e);
  auto arity = [&](size_t min, size_t max) { return prototypeArity(e, min, max); };
  auto argIs = [&](size_t i, bool ok, const char* prototype) {
    return prototypeArg(e, i, ok, prototype);
  };
  if (e.text == "copyinstr") {
    if (!arity(1, 2) || !argIs(0, args[0]->type->isScalar(), "uintptr_t")) return nullptr;
    if (args.size() == 2 && !argIs(1, args[1]->type->isInteger(), "size_t")) return nullptr;
    return types_.stringType();
  }
  if (e.text == "strlen") {
    if (!arity(1, 1) || !stringArg(e, 0)) return nullptr;
    return types_.lookup("size_t");
  }
  // Byte order: network order is big-endian; x86 is little-endian.
  static const std::pair<const char*, const char*> kByteOrder[] = {
      {"htons", "uint16_t"}, {"ntohs", "uint16_t"},  {"htonl", "uint32_t"},
      {"ntohl", "uint32_t"}, {"htonll", "uint64_t"}, {"ntohll", "uint64_t"},
  };
  for (const auto& [name, typeName] : kByteOrder) {
    if (e.text != name) continue;
    if (!arity(1, 1) || !argIs(0, args[0]->type->isInteger(), typeName)) return nullptr;
    return types_.lookup(typeName);
  }
  if (e.text == "strjoin") {
    if (!arity(2, 2) || !stringArg(e, 0) || !stringArg(e, 1)) return nullptr;
    return types_.stringType();
  }
  if (e.text == "substr") {
    if (!arity(2, 3) || !stringArg(e, 0) || !argIs(1, args[1]->type->isInteger(), "int") ||
        (args.size() == 3 && !argIs(2, args[2]->type->isInteger(), "int"))) {
      return nullptr;
    }
    return types_.stringType();
  }
  if (e.text == "lltostr") {  // an optional base, 2 to 36, checked at run time
    if (!arity(1, 2) || !argIs(0, args[0]->type->isInteger(), "int64_t")) return nullptr;
    if (args.size() == 2 && !argIs(1, args[1]->type->isInteger(), "int")) return nullptr;
    // "-9223372036854775808"; in base 2 up to 64 digits
    return types_.boundedString(args.size() == 2 ? 65 : 21);
  }
  if (e.text == "toupper" || e.text == "tolower") {
    if (!arity(1, 1) || !stringArg(e, 0)) return nullptr;
    return types_.stringType();
  }
  if (e.text == "rand" || e.text == "speculation") {
    if (!arity(0, 0)) return nullptr;
    return types_.intType();
  }
  const Type* result = nullptr;
  if (stringSubroutine(e, result) || memorySubroutine(e, result)) return result;
  // A name that is something else: DTrace says what kind of thing it is.
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
bool Checker::stringSubroutine(Expr& e, const Type*& result) {
  auto& args = e.operands;
  const std::string& name = e.text;
  auto isString = [&](size_t i) { return stringArg(e, i); };
  auto isInteger = [&](size_t i) { return args[i]->type->isInteger(); };
  result = nullptr;
  if (name == "index" || name == "rindex") {
    if (prototypeArity(e, 2, 3) && isString(0) && isString(1) &&
        (args.size() == 2 || prototypeArg(e, 2, isInteger(2), "int"))) {
      result = types_.intType();
    }
    return true;
  }
  if (name == "strchr" || name == "strrchr") {
    if (prototypeArity(e, 2, 2) && isString(0) && prototypeArg(e, 1, isInteger(1), "char")) {
      result = types_.stringType();
    }
    return true;
  }
  if (name == "strstr") {
    if (prototypeArity(e, 2, 2) && isString(0) && isString(1)) {
      result = types_.stringType();
    }
    return true;
  }
  if (name == "strtok") {  // strtok(NULL, delims) goes on with the previous string
    if (prototypeArity(e, 2, 2) &&
        ((args[0]->constValue && *args[0]->constValue == 0) || isString(0)) && isString(1)) {
      result = types_.stringType();
    }
    return true;
  }
  if (name == "basename" || name == "dirname" || name == "cleanpath") {
    if (prototypeArity(e, 1, 1) && isString(0)) {
      result = types_.stringType();
    }
    return true;
  }
  if (name == "strtoll") {
    if (prototypeArity(e, 1, 2) && isString(0) &&
        (args.size() == 1 || prototypeArg(e, 1, isInteger(1), "int"))) {
      result = types_.int64();
    }
    return true;
  }
  if (name == "inet_ntoa" || name == "inet_ntoa6") {
    // Oracle's inet_ntoa6(addr, strict): a non-zero integer constant asks
    // for inet_ntop()'s IPv4-in-IPv6 forms (::ffff:1.2.3.4).
    const bool ntoa6 = name == "inet_ntoa6";
    if (prototypeArity(e, 1, ntoa6 ? 2 : 1) &&
        prototypeArg(e, 0, args[0]->type->isScalar(), ntoa6 ? "in6_addr_t *" : "ipaddr_t *") &&
        (args.size() == 1 ||
         prototypeArg(e, 1, isInteger(1) && args[1]->constValue, "integer constant"))) {
      result = types_.boundedString(46);  // INET6_ADDRSTRLEN
    }
    return true;
  }
  if (name == "link_ntop") {  // Oracle's: 20 bytes of InfiniBand at most
    if (prototypeArity(e, 2, 2) && prototypeArg(e, 0, isInteger(0), "int") &&
        prototypeArg(e, 1, args[1]->type->isScalar(), "void *")) {
      result = types_.boundedString(60);
    }
    return true;
  }
  if (name == "inet_ntop") {
    if (prototypeArity(e, 2, 2) && prototypeArg(e, 0, isInteger(0), "int") &&
        prototypeArg(e, 1, args[1]->type->isScalar(), "void *")) {
      result = types_.boundedString(46);
    }
    return true;
  }
  return false;
}

// Scratch memory, copies from user and kernel memory, process ancestry and
// device numbers.
bool Checker::memorySubroutine(Expr& e, const Type*& result) {
  auto& args = e.operands;
  const std::string& name = e.text;
  auto isScalar = [&](size_t i) { return args[i]->type->isScalar(); };
  auto isInteger = [&](size_t i) { return args[i]->type->isInteger(); };
  const Type* voidPointer = types_.pointerTo(types_.voidType());
  result = nullptr;
  if (name == "alloca") {
    if (prototypeArity(e, 1, 1) && prototypeArg(e, 0, isInteger(0), "size_t")) {
      // As Oracle's DTrace: a constant size the scratch space cannot hold.
      const std::optional<int64_t> size = args[0]->constValue;
      if (size && static_cast<uint64_t>(*size) > scratchSize_) {
        return error("D_ALLOCA_SIZE", e.loc,
                     "alloca(" + std::to_string(static_cast<uint64_t>(*size)) +
                         ") size larger than scratchsize " + std::to_string(scratchSize_));
      }
      result = voidPointer;
    }
    return true;
  }
  if (name == "copyin") {
    if (prototypeArity(e, 2, 2) && prototypeArg(e, 0, isScalar(0), "uintptr_t") &&
        prototypeArg(e, 1, isInteger(1), "size_t")) {
      result = voidPointer;
    }
    return true;
  }
  if (name == "copyinto") {
    if (prototypeArity(e, 3, 3) && prototypeArg(e, 0, isScalar(0), "uintptr_t") &&
        prototypeArg(e, 1, isInteger(1), "size_t") && prototypeArg(e, 2, isScalar(2), "void *")) {
      result = types_.voidType();
    }
    return true;
  }
  if (name == "bcopy") {
    if (prototypeArity(e, 3, 3) &&
        prototypeArg(e, 0, isScalar(0) || args[0]->type->isString(), "void *") &&
        prototypeArg(e, 1, isScalar(1), "void *") && prototypeArg(e, 2, isInteger(2), "size_t")) {
      result = types_.voidType();
    }
    return true;
  }
  if (name == "progenyof") {
    if (prototypeArity(e, 1, 1) && prototypeArg(e, 0, isInteger(0), "pid_t")) {
      result = types_.intType();
    }
    return true;
  }
  if (name == "getmajor" || name == "getminor") {
    if (prototypeArity(e, 1, 1) && prototypeArg(e, 0, isInteger(0), "dev_t")) {
      result = types_.uintType();
    }
    return true;
  }
  return false;
}

}  // namespace dtrace::sema
