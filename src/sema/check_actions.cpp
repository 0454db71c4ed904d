// Type checks of DTrace's actions: the functions that record data or act
// (trace, printf, print, exit, tracemem, system, raise, ...), allowed only as
// statements. Prototypes and messages are those of illumos' dt_open.c and
// dt_cc.c.
#include "ir/printf_format.h"
#include "sema/checker.h"

namespace dtrace::sema {

using ast::Expr;
using ast::ExprKind;

namespace {

// The most bytes one action may record (tracemem(), print()): the record is
// built in the per-CPU scratch value, which the kernel caps at 32 KiB.
constexpr uint64_t kMaxRecordedBytes = 32 * 1024;

// illumos' freopen() sentinel for "restore the original output"; written
// by hand it would be ambiguous, so DTrace refuses it.
constexpr const char* kFreopenRestore = ".";

// print() walks every member and element of the value: kernel structs
// nested in it are read from BTF now.
void completeForPrint(TypeTable& types, const Type* t) {
  if (t->isArray()) {
    completeForPrint(types, t->target);
    return;
  }
  if (!t->isStruct()) return;
  for (const Member& m : types.complete(t)->members) completeForPrint(types, m.type);
}

}  // namespace

bool isPositiveConstant(const Expr& e) {
  if (!e.constValue || !e.type || !e.type->isInteger() || *e.constValue == 0) return false;
  return !e.type->isSigned || *e.constValue > 0;
}

ir::PrintfArg printfArgOf(const Type* t) {
  ir::PrintfArg a;
  a.cls = t->isString() || t->isCharArray() ? ir::PrintfArg::Class::String
          : t->isPointer()                  ? ir::PrintfArg::Class::Pointer
          : t->isInteger()                  ? ir::PrintfArg::Class::Integer
                                            : ir::PrintfArg::Class::Other;
  a.size = t->size;
  a.isSigned = t->isSigned;
  a.typeName = t->name;
  return a;
}

bool isActionName(std::string_view name) { return ir::actionNamed(name).has_value(); }

// Varargs prototypes count only their fixed part ("1 expected"), as
// dt_idcook_sign words it.
bool Checker::actionArgCountError(const Expr& call, size_t expected) {
  const size_t n = call.operands.size();
  return error("D_PROTO_LEN", call.loc,
               call.text + "( ) prototype mismatch: " + std::to_string(n) + " arg" +
                   (n == 1 ? "" : "s") + " passed, " + std::to_string(expected) + " expected");
}

// "f( ) argument #N is incompatible with prototype", under any tag.
bool Checker::actionArgIncompatible(const Expr& call, const char* tag, size_t i,
                                    const std::string& prototype) {
  const Expr& a = *call.operands[i];
  return error(tag, a.loc,
               call.text + "( ) argument #" + std::to_string(i + 1) +
                   " is incompatible with prototype:\n\tprototype: " + prototype +
                   "\n\t argument: " + a.type->name);
}

// tracemem() and printm(): how many bytes to record, a positive constant
// that a record can hold.
bool Checker::recordedSize(const Expr& call, const char* tag, size_t i) {
  const Expr& a = *call.operands[i];
  const std::string argument = call.text + "( ) argument #" + std::to_string(i + 1);
  if (!isPositiveConstant(a)) {
    return error(tag, a.loc,
                 argument + " must be a non-zero positive integral constant expression");
  }
  if (static_cast<uint64_t>(*a.constValue) > kMaxRecordedBytes) {
    return error(tag, a.loc,
                 argument + " exceeds the largest record of " + std::to_string(kMaxRecordedBytes) +
                     " bytes");
  }
  return true;
}

bool Checker::checkAction(Expr& call) {
  const ir::ActionKind kind = *ir::actionNamed(call.text);
  auto& args = call.operands;
  // printf() takes stack() and the symbol functions as values (%k, %a, %A).
  for (auto& a : args) {
    // An aggregating function where an action wants an aggregation is
    // refused as the wrong argument, not as a misplaced function.
    if (ir::actsOnAggregations(kind) && a->kind == ExprKind::Call &&
        isAggregatingFunction(a->text)) {
      a->type = types_.voidType();
      continue;
    }
    if (!(ir::takesFormat(kind) ? keyOrArgument(*a) : expr(*a))) return false;
  }
  if (kind != ir::ActionKind::Trace && !refuseTranslatedOperands(call)) return false;
  switch (kind) {
    case ir::ActionKind::Trace: {
      if (args.size() != 1) return actionArgCountError(call, 1);
      const Type* t = args[0]->type;
      if (t->isVoid())
        return error("D_TRACE_VOID", call.loc, "trace( ) may not be applied to a void expression");
      if (t->isAggregation())
        return error("D_TRACE_AGG", call.loc, "trace( ) may not be applied to an aggregation");
      if (isTranslatedPointer(*args[0])) {
        return error("D_TRACE_DYN", call.loc,
                     "trace( ) may not be applied to a translated pointer");
      }
      return true;
    }
    case ir::ActionKind::Printm:
      // void(size_t, uintptr_t *), then FreeBSD's dt_action_printm checks.
      if (args.size() != 2) return actionArgCountError(call, 2);
      if (!prototypeArg(call, 0, assignable(types_.lookup("size_t"), *args[0]), "size_t")) {
        return false;
      }
      if (!recordedSize(call, "D_PRINTM_SIZE", 0)) return false;
      if (!args[1]->type->isPointer()) {
        return actionArgIncompatible(call, "D_PRINTM_ADDR", 1, "pointer");
      }
      return true;
    case ir::ActionKind::Print:
      return checkPrintAction(call);
    case ir::ActionKind::Exit:
      if (args.size() != 1) return actionArgCountError(call, 1);
      if (!args[0]->type->isInteger()) return actionArgIncompatible(call, "D_PROTO_ARG", 0, "int");
      return true;
    case ir::ActionKind::Raise:
    case ir::ActionKind::Chill:  // void(int)
    case ir::ActionKind::Speculate:
    case ir::ActionKind::Commit:
    case ir::ActionKind::Discard:
      if (args.size() != 1) return actionArgCountError(call, 1);
      return prototypeArg(call, 0, assignable(types_.intType(), *args[0]), "int");
    case ir::ActionKind::Stop:
    case ir::ActionKind::Ftruncate:  // void()
      if (!args.empty()) return actionArgCountError(call, 0);
      return true;
    case ir::ActionKind::Tracemem:
      return checkTracememAction(call);
    case ir::ActionKind::Printa:
    case ir::ActionKind::Clear:
    case ir::ActionKind::Trunc:
    case ir::ActionKind::Normalize:
    case ir::ActionKind::Denormalize:
    case ir::ActionKind::Setopt:
      return checkAggregationAction(call, kind);
    case ir::ActionKind::Stack:
    case ir::ActionKind::Symbol:
      return codeAddressType(call) != nullptr;
    case ir::ActionKind::Printf:
    case ir::ActionKind::System:
    case ir::ActionKind::Freopen:
      break;
  }
  return checkFormatAction(call, kind);
}

bool Checker::checkPrintAction(Expr& call) {
  auto& args = call.operands;
  if (args.size() != 1) return actionArgCountError(call, 1);
  const Type* t = args[0]->type;
  if (t->isVoid()) {
    return error("D_PRINT_VOID", args[0]->loc, "print( ) may not be applied to a void expression");
  }
  if (t->isAggregation()) {
    return error("D_PRINT_AGG", args[0]->loc, "print( ) may not be applied to an aggregation");
  }
  // A pointer prints the object it points to, which must have a size.
  const Type* shown = types_.complete(t->isPointer() ? t->target : t);
  if (shown->isVoid() || shown->size == 0 || shown->kind == Type::Kind::Function ||
      (shown->isStruct() && !shown->complete)) {
    return error("D_PRINT_SIZE", args[0]->loc,
                 "print( ) argument #1 reference has type '" + shown->name +
                     "' with size 0; cannot print( ) it.");
  }
  if (shown->size > kMaxRecordedBytes) {
    return error("D_PRINT_SIZE", args[0]->loc,
                 "print( ) argument #1 has type '" + shown->name + "' of " +
                     std::to_string(shown->size) + " bytes, more than the largest record of " +
                     std::to_string(kMaxRecordedBytes) + " bytes");
  }
  completeForPrint(types_, shown);
  return true;
}

// void(@, size_t, ...), then dt_action_tracemem's own checks, in illumos'
// order.
bool Checker::checkTracememAction(Expr& call) {
  auto& args = call.operands;
  if (args.size() < 2) return actionArgCountError(call, 2);
  if (!prototypeArg(call, 1, assignable(types_.lookup("size_t"), *args[1]), "size_t")) {
    return false;
  }
  const Type* addr = args[0]->type;
  if (!addr->isInteger() && !addr->isPointerLike()) {
    return actionArgIncompatible(call, "D_TRACEMEM_ADDR", 0, "pointer or integer");
  }
  if (!recordedSize(call, "D_TRACEMEM_SIZE", 1)) return false;
  if (args.size() > 2) {
    if (args.size() > 3) {
      return error("D_TRACEMEM_ARGS", args[3]->loc,
                   "tracemem ( ) prototype mismatch: expected at most 3 args");
    }
    if (!args[2]->type->isScalar()) {
      return error("D_TRACEMEM_DYNSIZE", args[2]->loc,
                   "tracemem ( ) dynamic size (argument #3) must be of scalar type");
    }
  }
  return true;
}

// printf-like: void(@, ...), the first argument a string constant.
bool Checker::checkFormatAction(Expr& call, ir::ActionKind kind) {
  auto& args = call.operands;
  if (args.empty()) return actionArgCountError(call, 1);
  if (!args[0]->type->isStringCompatible()) {
    return actionArgIncompatible(call, "D_PROTO_ARG", 0, "string");
  }
  if (args[0]->kind != ExprKind::StringLiteral) {
    return actionArgIncompatible(call, "D_PRINTF_ARG_FMT", 0, "string constant");
  }
  std::string format = args[0]->text;
  if (kind == ir::ActionKind::Freopen) {
    if (format == kFreopenRestore) {
      // Reported outside the clause's region, as DTrace reports it.
      diags_.error("D_FREOPEN_INVALID", call.loc,
                   "freopen( ) argument #1 cannot be \"" + std::string(kFreopenRestore) + "\"");
      return false;
    }
    if (format.empty()) format = kFreopenRestore;  // freopen(""): back to the original output
  }
  auto parsed = ir::PrintfFormat::parse(format);
  if (auto* err = std::get_if<ir::PrintfError>(&parsed))
    return error(err->tag.c_str(), call.loc, err->message);
  std::vector<ir::PrintfArg> described;
  for (size_t i = 1; i < args.size(); i++) described.push_back(printfArgOf(args[i]->type));
  if (auto err = std::get<ir::PrintfFormat>(parsed).check(described, call.text)) {
    return error(err->tag.c_str(), call.loc, err->message);
  }
  return true;
}

}  // namespace dtrace::sema
