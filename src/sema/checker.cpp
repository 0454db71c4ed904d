#include "sema/checker.h"

#include <cctype>
#include <limits>

#include "ir/printf_format.h"
#include "sema/identifier_versions.h"
#include "sema/type_rules.h"

namespace dtrace::sema {

using ast::Expr;
using ast::ExprKind;
using ast::Op;

const Expr& throughInlines(const Expr& e) {
  const Expr* p = &e;
  while (p->inlineValue) p = p->inlineValue;
  return *p;
}

bool isActionCall(const Expr& e) { return e.kind == ExprKind::Call && isActionName(e.text); }

// @a[i][j], anywhere in e: the aggregation indexed twice, or null.
const Expr* nestedAggregationIndex(const Expr& e) {
  if (e.kind == ExprKind::Index && e.operands[0]->kind == ExprKind::Index &&
      e.operands[0]->operands[0]->kind == ExprKind::AggregationRef) {
    return e.operands[0]->operands[0].get();
  }
  for (const auto& o : e.operands) {
    if (!o) continue;
    if (const Expr* found = nestedAggregationIndex(*o)) return found;
  }
  return nullptr;
}

bool isTranslatedPointer(const Expr& e) {
  const Expr& source = throughInlines(e);
  return source.kind == ExprKind::Xlate && source.type && source.type->isPointer();
}

std::optional<std::string> MacroTable::unusedArgument(const std::set<size_t>& referenced) const {
  const size_t last = args.size() - 1;
  if (args.size() < 2 || referenced.count(last)) return std::nullopt;
  return "extraneous argument '" + args[last] + "' ($" + std::to_string(last) +
         " is not referenced)";
}

const std::string* MacroTable::find(std::string_view name) const {
  if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0]))) {
    // Digits only (the lexer saw to that); too many for any index is unset.
    if (name.size() > 9) return nullptr;
    size_t index = std::stoul(std::string(name));
    return index < args.size() ? &args[index] : nullptr;
  }
  auto it = named.find(std::string(name));
  return it == named.end() ? nullptr : &it->second;
}

Checker::Checker(TypeTable& types, SymbolTable& symbols, const MacroTable& macros,
                 Diagnostics& diags, Definitions* definitions)
    : defs_(definitions ? *definitions : ownDefinitions_),
      types_(types),
      symbols_(symbols),
      macros_(macros),
      diags_(diags) {}

namespace {

// Errors DTrace reports outside its clause-checking pass, so with no region: while parsing
// (constant folding, macros) or while building the actions (printf formats, action ordering,
// aggregation arguments).
bool reportedOutsideRegion(const std::string& tag) {
  static const char* const kPrefixes[] = {
      "D_PRINTF_",     "D_PRINTA_",   "D_DIV_ZERO",  "D_MACRO_",   "D_PDESC_",     "D_PRAGMA_",
      "D_SYNTAX",      "D_INT_",      "D_COMM_",     "D_SPEC_",    "D_AGG_SPEC",   "D_AGG_COMM",
      "D_ACT_SPEC",    "D_DREC_",     "D_EXIT_SPEC", "D_CLEAR_",   "D_NORMALIZE_", "D_TRUNC_",
      "D_TRACE_",      "D_TRACEMEM_", "D_STACK_",    "D_USTACK_",  "D_SETOPT_",    "D_PRINTM_",
      "D_UNSUPPORTED", "D_QUANT_",    "D_LQUANT_",   "D_LLQUANT_", "D_DECL_",      "D_FUNC_UNDEF",
      "D_FUNC_IDKIND", "D_CG_",       "D_OFFSETOF_", "D_AGG_MDIM", "D_PRINT_",
  };
  for (const char* p : kPrefixes) {
    if (tag.rfind(p, 0) == 0) return true;
  }
  return false;
}

}  // namespace

bool Checker::error(const char* tag, SourceLoc loc, std::string message) {
  diags_.error(tag, loc, std::move(message), reportedOutsideRegion(tag) ? nullptr : region_);
  return false;
}

bool Checker::errorOutsideRegion(const char* tag, SourceLoc loc, std::string message) {
  diags_.error(tag, loc, std::move(message), nullptr);
  return false;
}

bool Checker::check(ast::Program& program) {
  for (auto& item : program.items) {
    bool ok = true;
    if (auto* clause = std::get_if<ast::ProbeClause>(&item)) {
      ok = checkClause(*clause);
    } else if (auto* decl = std::get_if<ast::Declaration>(&item)) {
      ok = checkDeclaration(*decl);
    } else if (auto* in = std::get_if<ast::InlineDecl>(&item)) {
      ok = checkInline(*in);
    } else if (auto* tr = std::get_if<ast::TranslatorDecl>(&item)) {
      ok = checkTranslator(*tr);
    } else if (auto* pragma = std::get_if<ast::Pragma>(&item)) {
      ok = checkAttributesPragma(*pragma);
    }
    if (!ok) return false;
  }
  // A #pragma attributes whose name the program never defined.
  for (const ast::Pragma* p : pendingAttributes_) {
    if (identifierKind(attributesTarget(*p)).empty()) {
      return error("D_PRAGMA_UNUSED", p->loc, "unused #pragma attributes");
    }
  }
  // An action inside an expression is refused only once everything else is
  // known to be right, as illumos refuses it in its code generator.
  if (nestedAction_) {
    return error("D_CG_EXPR", nestedAction_->loc,
                 "tracing function " + nestedAction_->text +
                     "( ) may not be called from a D expression (D program context required)");
  }
  if (unavailableAction_) {
    return error("D_FUNC_UNDEF", unavailableAction_->loc, unavailableAction_->message);
  }
  return true;
}

// The actions first, then the predicate, as DTrace cooks a clause: a
// variable the actions assign is known to the predicate. When the actions
// use a variable not yet known, DTrace tries again predicate first (the
// predicate may assign it: /i++ == 3/ { trace(i); }).
bool Checker::checkClause(ast::ProbeClause& clause) {
  const size_t errors = diags_.all().size();
  bool ok = checkActions(clause) && checkPredicate(clause);
  if (!ok && clause.predicate && diags_.all().size() == errors + 1) {
    const std::string& tag = diags_.all().back().tag;
    if (tag == "D_IDENT_UNDEF" || tag == "D_VAR_UNDEF") {
      diags_.dropLast();
      ok = checkPredicate(clause) && checkActions(clause);
    }
  }
  region_ = nullptr;
  return ok && checkSpeculationRules(clause);
}

bool Checker::checkActions(ast::ProbeClause& clause) {
  region_ = "action list";
  return checkStatements(clause.body);
}

bool Checker::checkPredicate(ast::ProbeClause& clause) {
  if (!clause.predicate) return true;
  region_ = "predicate";
  const Type* t = expr(*clause.predicate);
  if (!t || !refuseTranslatedResult(*clause.predicate)) return false;
  // dt_compile's dt_node_is_scalar: an integer, enum or pointer; a string
  // (a char array to CTF) is none.
  if (!t->isScalar() || t->isString()) {
    return error("D_PRED_SCALAR", clause.predicate->loc, "predicate result must be of scalar type");
  }
  return true;
}

namespace {

// An expression made of integer constants only: literals, integer inlines
// and enumerators, and operators on them. Checking it has no effect
// beyond the expression itself.
bool isConstantCondition(const Expr& e, const Definitions& defs) {
  switch (e.kind) {
    case ExprKind::IntLiteral:
    case ExprKind::CharLiteral:
      return true;
    case ExprKind::Identifier: {
      auto it = defs.inlines.find(e.text);
      return it != defs.inlines.end() && it->second.value->constValue.has_value();
    }
    case ExprKind::Unary:
    case ExprKind::Binary:
    case ExprKind::Ternary:
      for (const auto& o : e.operands) {
        if (!isConstantCondition(*o, defs)) return false;
      }
      return !e.operands.empty();
    default:
      return false;
  }
}

}  // namespace

// `OPT_verbose ? printf("...") : 1;`: a statement whose condition is a
// constant (an integer inline, a macro argument, a literal) is the branch
// it chooses, as DTrace substitutes constants while parsing; the other
// branch is never checked, so either may be an action.
void Checker::foldConstantConditions(ast::ExprPtr& e) {
  while (e->kind == ExprKind::Ternary && isConstantCondition(*e->operands[0], defs_)) {
    Expr& condition = *e->operands[0];
    if (!expr(condition) || !condition.constValue) return;
    ast::ExprPtr chosen = std::move(e->operands[*condition.constValue != 0 ? 1 : 2]);
    e = std::move(chosen);
  }
}

bool Checker::checkStatements(std::vector<ast::StmtPtr>& stmts) {
  for (auto& s : stmts) {
    if (!checkStatement(*s)) return false;
  }
  return true;
}

bool Checker::checkStatement(ast::Stmt& stmt) {
  switch (stmt.kind) {
    case ast::StmtKind::Empty:
      return true;
    case ast::StmtKind::Block:
      return checkStatements(stmt.body);
    case ast::StmtKind::If: {
      const Type* t = expr(*stmt.expr);
      if (!t || !refuseTranslatedPointer(*stmt.expr)) return false;
      if (!t->isScalar()) {
        return error("D_IF_SCALAR", stmt.expr->loc,
                     "if-statement condition must be of scalar type");
      }
      return checkStatements(stmt.body) && checkStatements(stmt.elseBody);
    }
    case ast::StmtKind::Expr:
      break;
  }
  foldConstantConditions(stmt.expr);
  Expr& e = *stmt.expr;
  if (const Expr* nested = nestedAggregationIndex(e)) {
    return error("D_AGG_MDIM", nested->loc,
                 "improper attempt to reference " + nested->text + " as a multi-dimensional array");
  }
  if (e.kind == ExprKind::AggregationRef ||
      (e.kind == ExprKind::Index && e.operands[0]->kind == ExprKind::AggregationRef)) {
    const Expr& ref = e.kind == ExprKind::Index ? *e.operands[0] : e;
    return error("D_AGG_NULL", e.loc, "expression has null effect: " + ref.text);
  }
  // (An action of a later D version is an undefined function, as call() says.)
  if (e.kind == ExprKind::Call && isActionName(e.text) && introducedIn(e.text) <= version_) {
    return checkAction(e);
  }
  if (e.kind == ExprKind::Assign) {
    const Expr& target = *e.operands[0];
    bool toAggregation =
        target.kind == ExprKind::AggregationRef ||
        (target.kind == ExprKind::Index && target.operands[0]->kind == ExprKind::AggregationRef);
    if (toAggregation) return checkAggregationAssign(e);
  }
  if (!expr(e)) return false;
  return refuseTranslatedResult(e);
}

bool Checker::checkDeclaration(ast::Declaration& decl) {
  if (decl.declarators.empty()) {  // `struct s { ... };` defines only the type
    if (!resolveDeclared(decl.spec, ast::Declarator{})) return false;
    if (!decl.spec.structSpec && !decl.spec.enumSpec) {
      return error("D_DECL_USELESS", decl.spec.loc, "useless declaration");
    }
    return true;
  }
  for (auto& d : decl.declarators) {
    if (d.name.find('`') != std::string::npos) {
      return error("D_DECL_SCOPE", d.loc,
                   "D scoping operator may not be used in a declaration name (" + d.name + ")");
    }
    // `int a[string, int]` declares an associative array: the key list is
    // the outermost declarator step, the rest gives the value type.
    std::vector<const Type*> keyTypes;
    size_t valueSteps = d.steps.size();
    if (!d.steps.empty() && d.steps.back().kind == ast::DeclaratorStep::Kind::Array &&
        !d.steps.back().arrayKeys.empty()) {
      for (const auto& keyType : d.steps.back().arrayKeys) {
        const Type* kt = resolveTypeName(*keyType);
        if (!kt) return false;
        if (kt->isVoid()) {  // dt_decl_prototype
          return error("D_DECL_PROTO_TYPE", keyType->loc,
                       "array prototype may not use parameter of type void: (anonymous), "
                       "parameter #" +
                           std::to_string(keyTypes.size() + 1));
        }
        keyTypes.push_back(kt);
      }
      valueSteps--;
    }
    const Type* type = resolveDeclared(decl.spec, d, valueSteps);
    if (!type) return false;
    if (decl.spec.storage == ast::StorageClass::Typedef) {
      // The same typedef again is harmless (a library and a script may
      // share one); another type under the name is not, but for an integer
      // of the same size, as system headers give D's own names (id_t is
      // unsigned in glibc): the first one stays.
      if (const Type* old = types_.lookupLocal(d.name); old && old != type) {
        const Type* oldBase = types_.complete(old);
        const Type* newBase = types_.complete(type);
        if (oldBase->isInteger() && newBase->isInteger() && oldBase->size == newBase->size) {
          continue;
        }
        return error("D_DECL_IDRED", d.loc, "typedef redeclared: " + d.name);
      }
      types_.addTypedef(d.name, type);
      continue;
    }
    if (decl.spec.storage == ast::StorageClass::Extern) {
      // An external (kernel) symbol's type: no storage here, and a use of
      // it is refused as kernel variables are.
      externs_.insert(d.name);
      continue;
    }
    if (type->isArray() && type->count == 0 && keyTypes.empty()) {
      return error("D_DECL_ARRNULL", d.loc,
                   "array declaration requires array dimension or tuple signature: " + d.name);
    }
    if (type->isVoid()) {
      return error("D_DECL_VOIDOBJ", d.loc, "cannot have void object: " + d.name);
    }
    if (const Type* t = types_.complete(type);
        (t->isStruct() || t->kind == Type::Kind::Enum) && !t->complete) {
      return error("D_DECL_INCOMPLETE", d.loc,
                   "incomplete struct/union/enum " + t->name + ": " + d.name);
    }
    if (decl.spec.storage == ast::StorageClass::Static ||
        decl.spec.storage == ast::StorageClass::Auto ||
        decl.spec.storage == ast::StorageClass::Register) {
      return error("D_DECL_BADCLASS", d.loc, "specified storage class not appropriate in D");
    }
    if (decl.spec.storage == ast::StorageClass::Self) {
      if (symbols_.findThreadLocal(d.name)) {
        return error("D_DECL_IDRED", d.loc, "identifier redeclared: self->" + d.name);
      }
      Variable* v = symbols_.addThreadLocal(d.name, d.loc);
      v->type = type;
      v->keyTypes = keyTypes;
      v->threadLocalArray = !keyTypes.empty();
      v->declared = true;
      continue;
    }
    if (decl.spec.storage == ast::StorageClass::This && !keyTypes.empty()) {
      return error("D_DECL_LOCASSC", d.loc,
                   "associative arrays may not be declared as local variables: " + d.name);
    }
    if (decl.spec.storage == ast::StorageClass::This) {
      if (symbols_.findClauseLocal(d.name)) {
        return error("D_DECL_IDRED", d.loc, "identifier redeclared: " + d.name);
      }
      Variable* v = symbols_.addClauseLocal(d.name, d.loc);
      v->type = type;
      v->declared = true;
      continue;
    }
    if (isBuiltinIdentifier(d.name)) {  // dt_node_decl
      return error("D_DECL_IDRED", d.loc, "built-in identifier redeclared: " + d.name);
    }
    if (Variable* old = symbols_.findGlobal(d.name)) {
      if (!sameDeclaration(*old, type, keyTypes, d)) return false;
      continue;
    }
    Variable* v = keyTypes.empty() ? symbols_.addGlobal(d.name, d.loc)
                                   : symbols_.addAssociative(d.name, d.loc);
    v->type = type;
    v->keyTypes = keyTypes;
    v->declared = true;
  }
  return true;
}

}  // namespace dtrace::sema
