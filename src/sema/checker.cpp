#include "sema/checker.h"

#include <cctype>
#include <limits>

#include "ir/printf_format.h"
#include "sema/identifier_versions.h"

namespace dtrace::sema {

using ast::Expr;
using ast::ExprKind;
using ast::Op;

namespace {

bool isIntegerText(std::string_view s) {
  if (s.empty()) return false;
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); i++) {
    if (!std::isalnum(static_cast<unsigned char>(s[i]))) return false;
  }
  const std::string text(s);  // `end` points into it
  char* end = nullptr;
  errno = 0;
  std::strtoull(text.c_str(), &end, 0);
  return errno == 0 && *end == '\0';
}

bool isComparison(Op op) {
  return op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge || op == Op::Eq ||
         op == Op::Ne;
}
bool isLogical(Op op) {
  return op == Op::LogicalAnd || op == Op::LogicalOr || op == Op::LogicalXor;
}
bool needsIntegers(Op op) {
  return op == Op::Mod || op == Op::Shl || op == Op::Shr || op == Op::BitAnd || op == Op::BitOr ||
         op == Op::BitXor;
}

// Truncates v to the width and signedness of t, as a C conversion does.
int64_t convert(int64_t v, const Type* t) {
  if (!t->isInteger() || t->size >= 8) return v;
  uint64_t mask = (uint64_t{1} << (t->size * 8)) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (t->isSigned && (u >> (t->size * 8 - 1)) & 1) u |= ~mask;
  return static_cast<int64_t>(u);
}

std::string quoted(const Type* t) { return "\"" + t->name + "\""; }

// A null pointer constant: integer 0, or NULL (a void * 0).
bool isNullConstant(const Expr& e) {
  return e.constValue && *e.constValue == 0 && e.type &&
         (e.type->isInteger() || (e.type->isPointer() && e.type->target->isVoid()));
}

// Pointers to void or to functions have no size to scale by.
bool isVoidOrFunctionPointer(const Type* t) {
  return t->isPointer() && (t->target->isVoid() || t->target->kind == Type::Kind::Function);
}

// illumos's ctf_type_compat: the same type, or one of the same shape.
bool compatible(const Type* a, const Type* b) {
  if (a == b) return true;
  if (a->kind != b->kind) return false;
  switch (a->kind) {
    case Type::Kind::Integer:
      return a->size == b->size && a->isSigned == b->isSigned;
    case Type::Kind::Pointer:
    case Type::Kind::Function:
      return compatible(a->target, b->target);
    case Type::Kind::Array:
      return a->count == b->count && compatible(a->target, b->target);
    case Type::Kind::Struct:
    case Type::Kind::Union:
    case Type::Kind::Enum:
    case Type::Kind::Float:
      return !a->name.empty() && a->name == b->name;
    case Type::Kind::String:
      return true;
    default:
      return false;
  }
}

// dt_node_is_ptrcompat on types: `aNull` says a is a null pointer constant.
bool pointerCompatibleTypes(const Type* a, bool aNull, const Type* b, bool bNull,
                            const Type** result) {
  const bool aInt = a->isInteger(), bInt = b->isInteger();
  if ((aInt && bInt) || (aInt && !aNull) || (bInt && !bNull)) return false;
  if (aInt) a = b;
  if (bInt) b = a;
  if (!a->isPointerLike() || !b->isPointerLike()) return false;
  const bool aVoid = a->target->isVoid(), bVoid = b->target->isVoid();
  if (!aVoid && !bVoid && !compatible(a->target, b->target)) return false;
  if (result) *result = bVoid ? a : b;
  return true;
}

// Unsigned bit-fields narrower than int promote to int: illumos ranks an
// integer by its width in bits.
bool isNarrowUnsignedBitField(const Expr& e) {
  return e.bitWidth && e.bitWidth < 32 && e.type && e.type->isInteger() && !e.type->isSigned &&
         e.type->size >= 4;
}

}  // namespace

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

// A built-in variable, subroutine, action or aggregating function of the
// program's D version (an identifier libdtrace's globals hold, di_gen 0).
bool Checker::isBuiltinIdentifier(const std::string& name) {
  return (builtinVariable(name) || isFunctionName(name)) && introducedIn(name) <= version_;
}

// A built-in variable of the program's D version: dt_opt_version's
// dt_reduce drops later ones, so their names are the program's own.
const Variable* Checker::builtinVariable(std::string_view name) {
  if (introducedIn(name) > version_) return nullptr;
  return symbols_.findBuiltin(name, types_);
}

// A global declared again must be what it was; DTrace says how it differs
// (dt_node_decl): kind and type, a key's type, or the tuple's length.
bool Checker::sameDeclaration(const Variable& old, const Type* type,
                              const std::vector<const Type*>& keyTypes, const ast::Declarator& d) {
  const bool keyed = !keyTypes.empty();
  auto kind = [](bool k) { return k ? "associative array" : "scalar"; };
  const std::string head = "identifier redeclared: " + d.name + "\n\t current: ";
  if (old.isKeyed() != keyed || old.type != type) {
    return error("D_DECL_IDRED", d.loc,
                 head + kind(keyed) + " " + type->name + "\n\tprevious: " + kind(old.isKeyed()) +
                     " " + (old.type ? old.type->name : "int"));
  }
  if (!keyed) return true;
  for (size_t i = 0; i < keyTypes.size() && i < old.keyTypes.size(); i++) {
    if (keyTypes[i] == old.keyTypes[i]) continue;
    const std::string n = std::to_string(i + 1);
    return error("D_DECL_IDRED", d.loc,
                 head + "associative array, key #" + n + " of type " + keyTypes[i]->name +
                     "\n\tprevious: associative array, key #" + n + " of type " +
                     old.keyTypes[i]->name);
  }
  if (keyTypes.size() != old.keyTypes.size()) {
    return error("D_DECL_IDRED", d.loc,
                 head + "associative array of " + type->name + ", tuple length " +
                     std::to_string(keyTypes.size()) + "\n\tprevious: associative array of " +
                     old.type->name + ", tuple length " + std::to_string(old.keyTypes.size()));
  }
  return true;
}

bool Checker::assignable(const Type* to, const Expr& fromExpr) const {
  const Type* from = fromExpr.type;
  if (to->isString() || from->isString()) {
    return to->isString() && (from->isString() || from->isCharArray());
  }
  if (to->isInteger() && from->isInteger()) return true;
  if (to->isStruct() || to->isFloat() || to->kind == Type::Kind::Function) {
    return compatible(to, from);
  }
  return pointerCompatibleTypes(to, false, from, isNullConstant(fromExpr), nullptr);
}

bool Checker::pointerCompatible(const Expr& a, const Expr& b, const Type** result) const {
  return pointerCompatibleTypes(a.type, isNullConstant(a), b.type, isNullConstant(b), result);
}

void Checker::replaceWithEmptyString(ast::ExprPtr& operand) {
  auto empty = std::make_unique<Expr>(ExprKind::StringLiteral, operand->loc);
  empty->type = types_.boundedString(1);
  operand = std::move(empty);
}

bool hasNullMarker(const Expr& e) {
  const Variable* v = e.variable;
  return v && v->type->isString() && e.type == v->type && !e.storageRoot &&
         (v->kind == Variable::Kind::Global || v->kind == Variable::Kind::ClauseLocal);
}

// A string and a char pointer may be assigned to each other, as DTrace's
// dt_node_is_argcompat allows: a string takes a copy of the string at the
// pointer; a char pointer takes the address of a copy of the string in
// scratch space, which lasts until the clause ends (DTrace's string
// temporaries live there too).
void Checker::convertStringPointer(ast::ExprPtr& value, const Type* to) {
  const Type* from = value->type;
  std::unique_ptr<Expr> converted;
  if (to->isString() && from->isCharPointer()) {
    converted = std::make_unique<Expr>(ExprKind::Stringof, value->loc);
    converted->type = types_.stringType();
  } else if (to->isCharPointer() && from->isString()) {
    converted = std::make_unique<Expr>(ExprKind::Call, value->loc);
    converted->text = kStringAddress;
    converted->type = to;
  } else {
    return;
  }
  converted->operands.push_back(std::move(value));
  value = std::move(converted);
}

void Checker::promoteBitField(ast::ExprPtr& operand) {
  if (!isNarrowUnsignedBitField(*operand)) return;
  auto cast = std::make_unique<Expr>(ExprKind::Cast, operand->loc);
  cast->typeName = std::make_shared<ast::TypeName>();
  cast->typeName->spec.basicWords = {"int"};
  cast->typeName->loc = operand->loc;
  cast->type = types_.intType();
  cast->operands.push_back(std::move(operand));
  operand = std::move(cast);
}

// The generated code for a compound assignment does the arithmetic in the
// wider operand type, which a 64-bit count keeps at 64 bits.
void Checker::scalePointerIncrement(Expr& assign, const Type* pointer) {
  if (assign.countScaled) return;
  assign.countScaled = true;
  ast::ExprPtr& count = assign.operands[1];
  const SourceLoc loc = count->loc;
  auto size = std::make_unique<Expr>(ExprKind::IntLiteral, loc);
  size->intValue = std::max<uint32_t>(1, pointer->target->size);
  size->constValue = static_cast<int64_t>(size->intValue);
  size->suffixUnsigned = true;
  size->suffixLongs = 1;
  size->text = std::to_string(size->intValue) + "UL";
  size->type = types_.ulongType();
  auto scaled = std::make_unique<Expr>(ExprKind::Binary, loc);
  scaled->op = Op::Mul;
  scaled->type = types_.arithmeticResult(count->type, types_.ulongType());
  scaled->operands.push_back(std::move(count));
  scaled->operands.push_back(std::move(size));
  fold(*scaled);
  count = std::move(scaled);
}

bool Checker::refuseTranslatedPointer(const Expr& e, const char* user) {
  if (!isTranslatedPointer(e)) return true;
  const std::string name = e.kind == ExprKind::Identifier ? e.text + " " : "";
  return error("D_OP_DYN", e.loc,
               std::string(user ? user : "") + "translated pointer " + name +
                   "may only be dereferenced or used with ->");
}

// A statement or predicate is compiled on its own (illumos's dt_cg): its
// value cannot be a translated pointer.
bool Checker::refuseTranslatedResult(const Expr& e) {
  if (!isTranslatedPointer(e)) return true;
  return error("D_CG_DYN", e.loc, "expression cannot evaluate to result of a translated pointer");
}

// The operands an expression uses as values: all but an assignment's
// target, an operand of * or -> (member() and dereference() allow those)
// and a cast's.
bool Checker::refuseTranslatedOperands(const Expr& e) {
  if (e.kind == ExprKind::Unary && e.op == Op::Deref) return true;
  if (e.kind == ExprKind::Cast) return true;  // cast() allows what it can convert
  for (size_t i = e.kind == ExprKind::Assign ? 1 : 0; i < e.operands.size(); i++) {
    if (e.operands[i].get() == e.inlineValue) continue;  // what a translated args[n] stands for
    if (!refuseTranslatedPointer(*e.operands[i])) return false;
  }
  return true;
}

const Type* Checker::sizeofType(Expr& e, const Type* of, bool bitField) {
  if (bitField) {
    error("D_SIZEOF_BITFIELD", e.loc, "cannot apply sizeof to a bit-field");
    return nullptr;
  }
  of = types_.complete(of);
  const bool incomplete = (of->isStruct() || of->kind == Type::Kind::Enum) && !of->complete;
  if (of->isVoid() || incomplete || of->size == 0) {
    error("D_SIZEOF_TYPE", e.loc, "cannot apply sizeof to an operand of unknown size");
    return nullptr;
  }
  // A string is strsize bytes to D, as illumos sizes its string type; the
  // buffer's extra byte for the terminating NUL is this implementation's.
  e.constValue = of == types_.stringType() ? types_.strsize() : of->size;
  return types_.lookup("size_t");
}

// ---- expressions ----------------------------------------------------------

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
        e.kind = ExprKind::Call;
        e.text = kStringOffset;
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

// Checks the keys of `a[k1, k2, ...]` against the array's key types, which
// its first use (or declaration) fixes. String keys widen to the longest.
// "this" or "self" when `e` is this->name or self->name.
const std::string* Checker::scopeOf(const Expr& e) {
  static const std::string kThis = "this", kSelf = "self";
  if (e.kind != ExprKind::Member || !e.isArrow || e.operands[0]->kind != ExprKind::Identifier) {
    return nullptr;
  }
  const std::string& scope = e.operands[0]->text;
  return scope == kThis ? &kThis : scope == kSelf ? &kSelf : nullptr;
}

const Type* Checker::localArrayError(const Expr& name) {
  error("D_ARR_LOCAL", name.loc,
        "local variables may not be used as associative arrays: " + name.text);
  return nullptr;
}

void Checker::arrayAsScalarError(const Expr& e) {
  error("D_IDENT_BADREF", e.loc,
        "associative array '" + e.text + "' may not be referenced as scalar");
}

// DTrace's message for a key whose type differs from the array's
// (dt_idcook_sign): the label is right-aligned under "prototype".
std::string Checker::keyMismatch(const std::string& array, size_t i, const Type* prototype,
                                 const Type* key) {
  return array + "[ ] key #" + std::to_string(i + 1) +
         " is incompatible with prototype:\n\tprototype: " + prototype->name +
         "\n\t      key: " + key->name;
}

// Kernel data symbols: this kernel's kallsyms lists none, and BTF types
// only per-CPU variables, so there is neither an address nor a type.
void Checker::kernelVariableError(const Expr& e) {
  if (e.text.empty() || e.text.back() == '`') {  // no name at all
    error("D_IDENT_UNDEF", e.loc, "failed to resolve " + e.text + ": Unknown symbol name");
    return;
  }
  error("D_IDENT_UNDEF", e.loc,
        "failed to resolve " + e.text +
            ": kernel variables are not available on Linux (no data symbols or types)");
}

// dt_idcook_assc's words for a key that is no value to key by (void,
// an aggregation, translated data).
bool Checker::keyTypeError(const Expr& key, const Type* t, size_t n, const char* indexed) {
  std::string what = t->name;
  if (isTranslatedPointer(key)) {
    what = "pointer to translated data";
  } else if (key.translation) {
    what = "translated data";
  } else if (key.kind == ExprKind::AggregationRef) {
    what = "aggregation " + key.text;
  }
  return error(
      "D_KEY_TYPE", key.loc,
      what + " expression may not be used as " + indexed + " index: key #" + std::to_string(n));
}

// DIF has eight tuple registers for keys; dt_cg_arglist refuses a ninth
// (EDT_NOTUPREG, an error with no D tag).
bool Checker::checkKeyCount(const Expr& index) {
  constexpr size_t kTupleRegisters = 8;
  if (index.operands.size() - 1 <= kTupleRegisters) return true;
  return error("", index.loc, "Insufficient tuple registers to generate code");
}

bool Checker::checkKeys(Variable& v, Expr& index) {
  if (!v.isKeyed()) {
    return error("D_IDENT_BADREF", index.loc,
                 v.name + " is not an associative array and may not be indexed");
  }
  if (!checkKeyCount(index)) return false;
  std::vector<const Type*> keys;
  for (size_t i = 1; i < index.operands.size(); i++) {
    Expr& key = *index.operands[i];
    const Type* t = expr(key);
    if (!t) return false;
    if (t->isCharArray()) t = types_.stringType();  // a string, as dt_node_is_strcompat has it
    // Structs and unions are keys by their bytes, as in DTrace; translated
    // data is no object to key by.
    if (key.translation || isTranslatedPointer(key) ||
        (!t->isScalar() && !t->isString() && !t->isStruct())) {
      return keyTypeError(key, t, i, "associative array");
    }
    keys.push_back(t);
  }
  if (v.keyTypes.empty()) {
    for (const Type*& t : keys) {
      if (t->isString()) t = types_.stringType();
    }
    v.keyTypes = keys;
    return true;
  }
  if (keys.size() != v.keyTypes.size()) {
    return error("D_PROTO_LEN", index.loc,
                 v.name + "[ ] prototype mismatch: " + std::to_string(keys.size()) + " key" +
                     (keys.size() == 1 ? "" : "s") + " passed, " +
                     std::to_string(v.keyTypes.size()) + " expected");
  }
  // The first use fixed the keys' types; a later key of another integer
  // type is converted to it, as illumos's dt_cg_arglist casts each key to
  // the array's signature (dt_idcook_sign). Strings, structs, integers and
  // pointers do not mix (dt_node_is_argcompat).
  for (size_t i = 0; i < keys.size(); i++) {
    const Type* key = keys[i];
    const Type* formal = v.keyTypes[i];
    const bool sameKind = key->isString() == formal->isString() &&
                          key->isStruct() == formal->isStruct() &&
                          key->isPointer() == formal->isPointer();
    if (!sameKind || (key->isStruct() && types_.complete(key) != types_.complete(formal))) {
      return error("D_PROTO_ARG", index.operands[i + 1]->loc, keyMismatch(v.name, i, formal, key));
    }
  }
  return true;
}

const Type* Checker::associativeRead(Expr& e) {
  Expr& name = *e.operands[0];
  const std::string* scope = scopeOf(name);
  if (scope && *scope == "this") return localArrayError(name);
  if (!scope && name.kind != ExprKind::Identifier) {
    error("D_UNSUPPORTED", e.loc, "arrays and pointers are not supported yet");
    return nullptr;
  }
  Variable* v = scope ? symbols_.findThreadLocal(name.text) : symbols_.findGlobal(name.text);
  if (!v) {
    error("D_VAR_UNDEF", name.loc,
          (scope ? *scope + "->" : "") + name.text + " has not yet been declared or assigned");
    return nullptr;
  }
  if (!checkKeys(*v, e)) return nullptr;
  name.variable = v;
  e.variable = v;
  return v->type;
}

const Type* Checker::call(Expr& e) {
  // What string indexing and offsets became when first checked (a clause
  // may be checked twice).
  if (e.text == kStringOffset) return types_.stringType();
  if (e.text == kStringCharacter) return types_.charType();
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
  if (!arraysAsPointers(e)) return nullptr;
  return subroutine(e);
}

// An array passed where a subroutine takes a void * is its address, as
// illumos's dt_node_is_argcompat allows: the argument becomes (void *)a.
bool Checker::arraysAsPointers(Expr& e) {
  static const std::pair<const char*, std::vector<size_t>> kVoidPointerParams[] = {
      {"bcopy", {0, 1}}, {"copyinto", {2}}, {"inet_ntop", {1}}, {"link_ntop", {1}}};
  for (const auto& [name, params] : kVoidPointerParams) {
    if (e.text != name) continue;
    for (size_t i : params) {
      if (i >= e.operands.size()) continue;
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
  }
  return true;
}

// Computes constValue when every operand is a constant, as the generated code
// computes it: in 64 bits, as DIF does (and illumos's dt_node_op2 folds);
// a cast converts to its type's width.
void Checker::fold(Expr& e) {
  auto c = [&](size_t i) { return e.operands[i]->constValue; };
  for (size_t i = 0; i < e.operands.size(); i++) {
    if (!c(i)) return;
  }
  const Type* t = e.type;
  if (!t || !t->isInteger()) return;
  auto operand = [&](size_t i) { return *c(i); };
  int64_t r = 0;
  switch (e.kind) {
    case ExprKind::Cast:
      r = convert(operand(0), t);
      break;
    case ExprKind::Ternary:
      r = operand(0) ? operand(1) : operand(2);
      break;
    case ExprKind::Unary:
      switch (e.op) {
        case Op::Plus:
          r = operand(0);
          break;
        case Op::Negate:
          r = static_cast<int64_t>(0 - static_cast<uint64_t>(operand(0)));
          break;
        case Op::BitNot:
          r = ~operand(0);
          break;
        case Op::LogicalNot:
          r = !operand(0);
          break;
        default:
          return;
      }
      break;
    case ExprKind::Binary: {
      const Type* at = e.operands[0]->type;
      const Type* bt = e.operands[1]->type;
      // The type the operation is done in says whether it is signed.
      const Type* opType = t;
      if (isComparison(e.op) || isLogical(e.op)) {
        opType = at && bt && at->isInteger() && bt->isInteger() ? types_.arithmeticResult(at, bt)
                                                                : types_.uint64();
      }
      // The values as they are, as the generated code computes them: the
      // type only says whether the operation is signed.
      int64_t a = operand(0);
      int64_t b = operand(1);
      bool unsignedOp = !opType->isSigned;
      uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
      switch (e.op) {
        case Op::Add:
          r = static_cast<int64_t>(ua + ub);
          break;
        case Op::Sub:
          r = static_cast<int64_t>(ua - ub);
          break;
        case Op::Mul:
          r = static_cast<int64_t>(ua * ub);
          break;
        case Op::Div:
        case Op::Mod:
          if (b == 0) return;  // refused by binary()
          if (unsignedOp) {
            r = static_cast<int64_t>(e.op == Op::Div ? ua / ub : ua % ub);
          } else if (a == std::numeric_limits<int64_t>::min() && b == -1) {
            r = e.op == Op::Div ? a : 0;
          } else {
            r = e.op == Op::Div ? a / b : a % b;
          }
          break;
        case Op::Shl:
          r = static_cast<int64_t>(ua << (ub & 63));
          break;
        case Op::Shr:
          r = unsignedOp ? static_cast<int64_t>(ua >> (ub & 63)) : a >> (ub & 63);
          break;
        case Op::BitAnd:
          r = a & b;
          break;
        case Op::BitOr:
          r = a | b;
          break;
        case Op::BitXor:
          r = a ^ b;
          break;
        case Op::LogicalAnd:
          r = a && b;
          break;
        case Op::LogicalOr:
          r = a || b;
          break;
        case Op::LogicalXor:
          r = !a != !b;
          break;
        case Op::Lt:
          r = unsignedOp ? ua < ub : a < b;
          break;
        case Op::Le:
          r = unsignedOp ? ua <= ub : a <= b;
          break;
        case Op::Gt:
          r = unsignedOp ? ua > ub : a > b;
          break;
        case Op::Ge:
          r = unsignedOp ? ua >= ub : a >= b;
          break;
        case Op::Eq:
          r = a == b;
          break;
        case Op::Ne:
          r = a != b;
          break;
        case Op::Comma:
          r = b;
          break;
        default:
          return;
      }
      break;
    }
    default:
      return;
  }
  e.constValue = r;
}

}  // namespace dtrace::sema
