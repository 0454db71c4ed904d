// stack(), ustack(), jstack() and the symbol functions (sym, func, mod,
// usym, ufunc, umod, uaddr): DTrace's prototypes and constant arguments,
// and the types of their values, whose sizes are those of the record
// fields that hold them. Each is an action as a statement, and a value as
// an aggregation key or a printf() argument.
#include "sema/checker.h"

namespace dtrace::sema {

using ast::Expr;

namespace {

// The record kind of a symbol function's value.
ir::DataKind symbolKind(const std::string& name) {
  if (name == "mod") return ir::DataKind::KernelModule;
  if (name == "usym" || name == "ufunc") return ir::DataKind::UserSymbol;
  if (name == "umod") return ir::DataKind::UserModule;
  if (name == "uaddr") return ir::DataKind::UserAddress;
  return ir::DataKind::KernelSymbol;  // sym, func
}

}  // namespace

bool isCodeAddressCall(const Expr& e) {
  if (e.kind != ast::ExprKind::Call) return false;
  const auto kind = ir::actionNamed(e.text);
  return kind == ir::ActionKind::Stack || kind == ir::ActionKind::Symbol;
}

const Type* Checker::keyOrArgument(Expr& e) {
  return isCodeAddressCall(e) ? codeAddressValue(e) : expr(e);
}

const Type* Checker::codeAddressValue(Expr& call) {
  for (auto& a : call.operands) {
    if (!expr(*a)) return nullptr;
  }
  if (!refuseTranslatedOperands(call)) return nullptr;
  return codeAddressType(call);
}

// Symbol functions are _symaddr(uintptr_t) and _usymaddr(uintptr_t): the
// address, and for user ones the process whose address it is.
const Type* Checker::codeAddressType(Expr& call) {
  if (*ir::actionNamed(call.text) == ir::ActionKind::Stack) return call.type = stackType(call);
  if (!prototypeArity(call, 1, 1) ||
      !prototypeArg(call, 0, assignable(types_.lookup("uintptr_t"), *call.operands[0]),
                    "uintptr_t")) {
    return nullptr;
  }
  const ir::DataKind kind = symbolKind(call.text);
  return call.type =
             types_.codeAddress(kind, (ir::isUserCodeKind(kind) ? ir::kUserPidBytes : 0) + 8);
}

// stack([uint32_t nframes]), ustack([uint32_t nframes], [uint32_t
// strsize]) and jstack(likewise), checked as Oracle's DTrace checks them:
// the prototype, then the frame count (a positive constant), then the
// string size (a constant, not negative). Frame counts above maxframes
// are cut to it, as DTrace does, silently.
const Type* Checker::stackType(Expr& call) {
  const bool user = call.text != "stack";
  auto& args = call.operands;
  const size_t maxArgs = user ? 2 : 1;
  if (args.size() > maxArgs) {
    error("D_PROTO_LEN", call.loc,
          call.text + "( ) prototype mismatch: " + std::to_string(args.size()) +
              " args passed, at most " + std::to_string(maxArgs) + " expected");
    return nullptr;
  }
  for (size_t i = 0; i < args.size(); i++) {
    if (!prototypeArg(call, i, assignable(types_.lookup("uint32_t"), *args[i]), "uint32_t")) {
      return nullptr;
    }
  }
  // DTrace's messages name ustack( ) for jstack( ) too.
  const std::string name = user ? "ustack" : "stack";
  uint64_t frames = call.text == "stack"    ? stackOptions_.stackFrames
                    : call.text == "ustack" ? stackOptions_.ustackFrames
                                            : stackOptions_.jstackFrames;
  if (!args.empty()) {
    if (!isPositiveConstant(*args[0])) {
      error(user ? "D_USTACK_FRAMES" : "D_STACK_SIZE", args[0]->loc,
            name + "( ) argument #1 must be a non-zero positive integer constant");
      return nullptr;
    }
    frames = static_cast<uint64_t>(*args[0]->constValue);
  }
  if (args.size() > 1) {
    const Expr& strsize = *args[1];
    if (!strsize.constValue || (strsize.type->isSigned && *strsize.constValue < 0)) {
      error("D_USTACK_STRSIZE", strsize.loc,
            name + "( ) argument #2 must be a positive integer constant");
      return nullptr;
    }
  }
  frames = std::min<uint64_t>(std::max<uint32_t>(stackOptions_.maxFrames, 1), frames);
  const auto bytes = static_cast<uint32_t>(8 * frames);
  return user ? types_.codeAddress(ir::DataKind::UserStack, ir::kUserPidBytes + bytes)
              : types_.codeAddress(ir::DataKind::KernelStack, bytes);
}

}  // namespace dtrace::sema
