// Type checks of DTrace's built-in arrays: args[] (typed by the probe) and
// uregs[] (the user registers). args[] takes an integer constant index,
// uregs[] any integer, as in illumos (dt_idcook_args, dt_idcook_regs), with
// the same messages.
#include <set>
#include <string>

#include "sema/checker.h"

namespace dtrace::sema {

using ast::Expr;
using ast::ExprKind;

namespace {

bool isArgsUse(const Expr& e) {
  return e.kind == ExprKind::Index && !e.operands.empty() &&
         e.operands[0]->kind == ExprKind::Identifier && e.operands[0]->text == "args";
}

template <typename Fn>
void forEachExpr(Expr& e, Fn& fn) {
  fn(e);
  for (auto& operand : e.operands) forEachExpr(*operand, fn);
}

template <typename Fn>
void forEachExpr(std::vector<ast::StmtPtr>& stmts, Fn& fn) {
  for (auto& s : stmts) {
    if (s->expr) forEachExpr(*s->expr, fn);
    forEachExpr(s->body, fn);
    forEachExpr(s->elseBody, fn);
  }
}

template <typename Fn>
void forEachClauseExpr(ast::Program& program, Fn fn) {
  for (auto& item : program.items) {
    auto* clause = std::get_if<ast::ProbeClause>(&item);
    if (!clause) continue;
    auto visit = [&](Expr& e) { fn(*clause, e); };
    if (clause->predicate) forEachExpr(*clause->predicate, visit);
    forEachExpr(clause->body, visit);
  }
}

// "const char *" -> base "char", 1 level of pointer; qualifiers dropped.
std::string baseTypeName(std::string type, int& pointers) {
  pointers = 0;
  for (const char* q : {"const ", "volatile ", "__user "}) {
    for (size_t at; (at = type.find(q)) != std::string::npos;)
      type.erase(at, std::string(q).size());
  }
  while (!type.empty() && (type.back() == '*' || type.back() == ' ')) {
    if (type.back() == '*') pointers++;
    type.pop_back();
  }
  return type;
}

}  // namespace

bool isBuiltinArray(std::string_view name) { return name == "args" || name == "uregs"; }

void Checker::prepareBuiltins(ast::Program& program, ArgsSource* source) {
  argsSource_ = source;
  argsClauses_.clear();
  clauseArgs_.clear();
  forEachClauseExpr(program, [this](const ast::ProbeClause& clause, Expr& e) {
    if (isArgsUse(e)) argsClauses_[&e] = &clause;
    if (e.kind != ExprKind::Identifier) return;
    if (int reg = registerConstant(e.text); reg >= 0) e.constValue = reg;  // regs.d's inlines
  });
}

// The clause an args[ ] use is in.
const ast::ProbeClause* Checker::clauseOf(const Expr& e) {
  auto it = argsClauses_.find(&e);
  return it == argsClauses_.end() ? nullptr : it->second;
}

const Type* Checker::builtinArray(Expr& index) {
  Expr& name = *index.operands[0];
  // A translated args[n] keeps what it stands for as a last operand.
  const bool translated = index.inlineValue && index.operands.back().get() == index.inlineValue;
  const size_t argc = index.operands.size() - 1 - (translated ? 1 : 0);
  if (argc != 1) {
    error("D_PROTO_LEN", index.loc,
          name.text + "[ ] prototype mismatch: " + std::to_string(argc) + " arg" +
              (argc == 1 ? " " : "s ") + "passed, 1 expected");
    return nullptr;
  }
  Expr& subscript = *index.operands[1];
  const Type* st = expr(subscript);
  if (!st) return nullptr;
  if (subscript.variable && subscript.variable->builtin == Builtin::RegIndex) {
    subscript.constValue = subscript.variable->argIndex;  // not prepared by prepareBuiltins
  }
  // Both arrays take only an integer constant (dt_idcook_args,
  // dt_idcook_regs).
  if (!st->isInteger() || !subscript.constValue) {
    error("D_PROTO_ARG", subscript.loc,
          name.text +
              "[ ] argument #1 is incompatible with prototype:\n\tprototype: "
              "integer constant\n\t argument: " +
              st->name);
    return nullptr;
  }
  const Variable* array = builtinVariable(name.text);
  name.variable = array;
  index.variable = array;
  return name.text == "args" ? argsElement(index, *subscript.constValue)
                             : uregsElement(index, *subscript.constValue);
}

// args[n]: the type the probe gives its argument n. A clause with several
// descriptions is checked once here (DTrace cooks it once per description),
// so they must agree on that type.
const Type* Checker::argsElement(Expr& index, int64_t n) {
  const ast::ProbeClause* clause = clauseOf(index);
  if (!clause || !argsSource_) {
    error("D_ARGS_NONE", index.loc, "args[ ] may not be referenced outside of a probe clause");
    return nullptr;
  }
  auto described = clauseArgs_.find(clause);
  if (described == clauseArgs_.end()) {
    described = clauseArgs_.emplace(clause, argsSource_->argsOf(*clause)).first;
  }
  const Type* type = nullptr;
  std::string typedBy;
  const DescriptionArgs* translated = nullptr;
  for (const DescriptionArgs& d : described->second) {
    if (!d.stable) {
      error("D_ARGS_MULTI", index.loc,
            "args[ ] may not be referenced because probe description " + d.description +
                " matches an unstable set of probes");
      return nullptr;
    }
    if (n < 0 || static_cast<uint64_t>(n) >= d.args.size()) {
      error("D_ARGS_IDX", index.loc,
            "index " + std::to_string(n) + " is out of range for " + d.description + " args[ ]");
      return nullptr;
    }
    const Type* t = probeArgType(d.args[n]);
    if (!d.args[n].translated.empty()) {
      // One translation serves the clause: its probes must agree on what
      // it translates from.
      if (translated && (translated->args[n].type != d.args[n].type ||
                         translated->args[n].translatedFrom != d.args[n].translatedFrom)) {
        error("D_ARGS_MULTI", index.loc,
              "args[" + std::to_string(n) + "] is translated from " + translated->args[n].type +
                  " for " + translated->description + " but from " + d.args[n].type + " for " +
                  d.description + ": use one clause per description");
        return nullptr;
      }
      translated = &d;
      int pointers = 0;
      const std::string base = baseTypeName(d.args[n].translated, pointers);
      t = d.args[n].translated == "string" ? types_.stringType() : types_.lookup(base);
      for (int i = 0; t && i < pointers; i++) t = types_.pointerTo(t);
    }
    if (type && t != type) {
      error("D_ARGS_MULTI", index.loc,
            "args[" + std::to_string(n) + "] is " + type->name + " for " + typedBy + " but " +
                t->name + " for " + d.description + ": use one clause per description");
      return nullptr;
    }
    type = t;
    typedBy = d.description;
  }
  if (!type) {
    error("D_ARGS_NONE", index.loc, "args[ ] may not be referenced outside of a probe clause");
  }
  if (type && translated) return translatedArg(index, n, *translated);
  return type;
}

namespace {

// A C type written as a provider names it ("struct task_struct *",
// "psinfo_t *", "unsigned long") as the parser would have read it.
std::shared_ptr<ast::TypeName> typeNameOf(std::string text, SourceLoc loc) {
  auto name = std::make_shared<ast::TypeName>();
  name->loc = loc;
  while (!text.empty() && (text.back() == '*' || text.back() == ' ')) {
    if (text.back() == '*') name->declarator.steps.emplace_back();  // a pointer step
    text.pop_back();
  }
  if (text.starts_with("const ")) {
    name->spec.isConst = true;
    text.erase(0, 6);
  }
  const bool isUnion = text.starts_with("union ");
  if (text.starts_with("struct ") || isUnion) {
    name->spec.structSpec = std::make_shared<ast::StructSpec>();
    name->spec.structSpec->isUnion = isUnion;
    name->spec.structSpec->tag = text.substr(text.find(' ') + 1);
    return name;
  }
  static const std::set<std::string, std::less<>> kBasicWords = {
      "void", "char", "short", "int", "long", "signed", "unsigned", "string"};
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(start, end - start);
    if (kBasicWords.count(word)) {
      name->spec.basicWords.push_back(word);
    } else {
      name->spec.typedefName = word;
    }
    start = end + 1;
  }
  return name;
}

}  // namespace

// A translated argument is the translator applied to the native one,
// xlate <T> ((native type) argN), or for a string stringof((char *) argN)
// (which reads user memory when the probe says argN is a user address);
// args[n] stands for that expression, built here once and kept with it.
const Type* Checker::translatedArg(Expr& index, int64_t n, const DescriptionArgs& described) {
  constexpr size_t kTranslation = 2;  // operands: args, n, then the translation
  const ProbeArg& arg = described.args[n];
  const int64_t from = arg.translatedFrom >= 0 ? arg.translatedFrom : n;
  if (index.operands.size() <= kTranslation) {
    auto native = std::make_unique<Expr>(ExprKind::Identifier, index.loc);
    native->text = "arg" + std::to_string(from);
    auto cast = std::make_unique<Expr>(ExprKind::Cast, index.loc);
    const bool known = from < static_cast<int64_t>(described.args.size());
    cast->typeName = typeNameOf(known ? described.args[from].type : "uintptr_t", index.loc);
    cast->operands.push_back(std::move(native));
    int pointers = 0;
    const Type* target = types_.lookup(baseTypeName(arg.translated, pointers));
    ast::ExprPtr translation;
    if (arg.translated == "string") {
      translation = std::make_unique<Expr>(ExprKind::Stringof, index.loc);
    } else if (target && types_.complete(target)->isStruct()) {
      translation = std::make_unique<Expr>(ExprKind::Xlate, index.loc);
      translation->typeName = typeNameOf(arg.translated, index.loc);
    } else {  // a scalar: the native value converted
      translation = std::make_unique<Expr>(ExprKind::Cast, index.loc);
      translation->typeName = typeNameOf(arg.translated, index.loc);
    }
    translation->operands.push_back(std::move(cast));
    index.operands.push_back(std::move(translation));
  }
  const Type* t = expr(*index.operands[kTranslation]);
  index.inlineValue = index.operands[kTranslation].get();
  return t;
}

// The D type of a probe argument's C type; a name D does not know (a kernel
// typedef without BTF) falls back to an integer of the argument's width, or
// to void * behind a pointer.
const Type* Checker::probeArgType(const ProbeArg& arg) {
  int pointers = 0;
  const std::string base = baseTypeName(arg.type, pointers);
  const Type* t = types_.lookup(base);
  if (!t || (pointers == 0 && !t->isScalar())) {
    t = pointers > 0 ? types_.voidType() : types_.integer(arg.size, arg.isSigned);
  }
  for (int i = 0; i < pointers; i++) t = types_.pointerTo(t);
  return t;
}

// uregs[n]: a saved user register, as DTrace numbers them on x86-64. A
// constant index beyond the table, or a register Linux does not save, is
// refused here (illumos faults at run time, as a run-time index does).
// uregs[n]: a negative n is refused (dt_idcook_regs); one past the table
// compiles and is an illegal operation at run time, as illumos's
// dtrace_getreg decides; a register Linux does not save is refused by name.
const Type* Checker::uregsElement(Expr& index, int64_t n) {
  const UserRegister* reg = userRegister(n);
  if (n < 0) {
    error("D_REGS_IDX", index.loc,
          "index " + std::to_string(n) + " is out of range for array uregs");
    return nullptr;
  }
  if (reg && !reg->ptRegsMember) {
    const Expr& subscript = *index.operands[1];
    std::string what = subscript.kind == ExprKind::Identifier ? subscript.text : std::to_string(n);
    error("D_REGS_IDX", index.loc,
          "uregs[" + what + "] is not available: Linux saves no such register for a user thread");
    return nullptr;
  }
  return types_.uint64();
}

}  // namespace dtrace::sema
