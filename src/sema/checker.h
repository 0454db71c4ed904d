// Semantic checks of a parsed D program: resolves names, gives every
// expression its type (C's promotions and conversions), folds constants,
// and refuses wrong programs with DTrace's error tags and messages.
#pragma once

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/printf_format.h"
#include "ir/subroutine.h"
#include "parse/ast.h"
#include "sema/symbols.h"
#include "sema/types.h"
#include "util/d_version.h"
#include "util/diag.h"

namespace dtrace::sema {

// Values of the macro variables: $1..$n from the command line, $target,
// $pid, ... ($target is absent without -c/-p).
struct MacroTable {
  std::vector<std::string> args;             // args[0] is $0 (the script name), args[1] is $1
  std::map<std::string, std::string> named;  // "target" -> "1234", "pid" -> ...
  bool defaultArgs = false;                  // -x defaultargs: an unset $N is 0, an unset $$N ""
  // Returns the value of $name, or null when it is not defined.
  const std::string* find(std::string_view name) const;
  // DTrace checks only the last argument: one that a program did not
  // reference (`referenced`: the N of each $N it used) is most likely a
  // mistake. D_MACRO_UNUSED's message, or nullopt.
  std::optional<std::string> unusedArgument(const std::set<size_t>& referenced) const;
};

// What one program's declarations define for the programs compiled after
// it in the same session: inline names and translators.
// A translator declaration: each member it defines is an expression of its
// input variable.
struct Translator {
  const Type* output;  // the struct it produces
  const Type* input;
  Variable* inputVariable;
  std::map<std::string, const ast::Expr*> members;
};

struct Definitions {
  struct Inline {
    const Type* type;
    const ast::Expr* value;
    std::vector<const Variable*> params{};  // an inline array's, in order
  };
  std::map<std::string, Inline, std::less<>> inlines;
  std::deque<Translator> translators;  // a deque: expressions point at its elements
  std::deque<Variable> translatorInputs;
};

// A type as the program spelled it through a typedef (for print() and
// messages, as CTF keeps typedef names): t's name with the typedef's
// underlying type replaced by the typedef; "" when `spec` names none.
std::string spelledTypeName(TypeTable& types, const ast::DeclSpec& spec, const Type* t);

// The options that size stack() and ustack() records (their defaults
// when a call gives no frame count).
struct StackOptions {
  uint32_t stackFrames = 20;    // stackframes
  uint32_t ustackFrames = 100;  // ustackframes
  uint32_t jstackFrames = 50;   // jstackframes
  uint32_t maxFrames = 127;     // maxframes: more are silently cut to this
};

class Checker {
 public:
  // `definitions` carries inlines and translators from one compiled program
  // to the next; without it they last as long as the checker.
  Checker(TypeTable& types, SymbolTable& symbols, const MacroTable& macros, Diagnostics& diags,
          Definitions* definitions = nullptr);

  // Checks the whole program; false when a diagnostic was reported.
  bool check(ast::Program& program);

  void setStackOptions(const StackOptions& options) { stackOptions_ = options; }
  // The scratchsize option: alloca() of a larger constant size is refused.
  void setScratchSize(uint64_t bytes) { scratchSize_ = bytes; }
  // The D version the program asked for (-x version): later built-ins
  // are not built-ins for it.
  void setVersion(uint32_t version) { version_ = version; }

  // dtrace -h and -G: checks the program's declarations (the typedefs,
  // structs and enums a provider definition may name) and every provider
  // definition, giving each probe argument its type (the nativeTypes and
  // translatedTypes of ast::ProviderProbeDecl). Probe clauses, inlines and
  // translators are left alone. False when a diagnostic was reported.
  bool checkProviders(ast::Program& program);

 private:
  bool checkClause(ast::ProbeClause& clause);
  // #pragma D attributes on an identifier (dt_pragma_attributes): a
  // built-in is outside the program's scope; a name not defined yet waits
  // for the program to define it.
  bool checkAttributesPragma(const ast::Pragma& pragma);
  static std::string attributesTarget(const ast::Pragma& pragma);
  std::vector<const ast::Pragma*> pendingAttributes_;
  bool checkActions(ast::ProbeClause& clause);
  // check_speculations.cpp: what may follow speculate() and commit().
  bool checkSpeculationRules(const ast::ProbeClause& clause);
  bool checkPredicate(ast::ProbeClause& clause);
  bool checkDeclaration(ast::Declaration& decl);
  // check_providers.cpp: provider definitions.
  bool checkProvider(ast::ProviderDecl& provider);
  bool probePrototype(const std::string& probe, const char* kind,
                      const std::vector<std::shared_ptr<ast::ParamDecl>>& params, bool varargs,
                      SourceLoc loc, std::vector<const Type*>& types);
  bool checkStatements(std::vector<ast::StmtPtr>& stmts);
  bool checkStatement(ast::Stmt& stmt);
  void foldConstantConditions(ast::ExprPtr& e);
  // check_actions.cpp: trace(), printf(), exit(), ...
  bool checkAction(ast::Expr& call);
  bool checkPrintAction(ast::Expr& call);
  bool checkTracememAction(ast::Expr& call);
  bool checkFormatAction(ast::Expr& call, ir::ActionKind kind);  // printf, system, freopen
  bool actionArgCountError(const ast::Expr& call, size_t expected);
  bool actionArgIncompatible(const ast::Expr& call, const char* tag, size_t i,
                             const std::string& prototype);
  bool recordedSize(const ast::Expr& call, const char* tag, size_t i);
  // check_stacks.cpp: stack(), ustack(), jstack(), sym(), usym(), ...
  // The type of one of these calls, its arguments already checked.
  const Type* codeAddressType(ast::Expr& call);
  // The same, checking its arguments first: a call used as an
  // aggregation key or a printf() argument.
  const Type* codeAddressValue(ast::Expr& call);
  const Type* stackType(ast::Expr& call);
  // An aggregation key or printf() argument: a stack or symbol function is
  // a value there, anything else an ordinary expression.
  const Type* keyOrArgument(ast::Expr& e);
  // check_aggregations.cpp: @name[keys] = func(args)
  bool checkAggregationAssign(ast::Expr& assign);
  bool aggregationParameter(const ast::Expr& fn, size_t i, const char* typeTag, const char* what,
                            int64_t* value);
  bool lquantizeParams(ast::Expr& fn, ir::AggParams& p);
  bool llquantizeParams(ast::Expr& fn, ir::AggParams& p);
  bool sameParams(const ast::Expr& fn, const Variable& agg, const ir::AggParams& p);
  const Type* aggregationRef(ast::Expr& ref);  // @a where a value is expected
  bool checkAggregationAction(ast::Expr& call, ir::ActionKind kind);
  bool checkPrintaFormat(ast::Expr& call, const Variable& first);
  bool sameKeys(const ast::Expr& first, const ast::Expr& other);

  // Expressions: return the type, or null after reporting an error.
  const Type* expr(ast::Expr& e);
  const Type* identifier(ast::Expr& e, bool forAssignment);
  const Type* macro(ast::Expr& e);
  const Type* unary(ast::Expr& e);
  const Type* binary(ast::Expr& e);
  const Type* assign(ast::Expr& e);
  const Type* pointerIncrement(ast::Expr& e, const Type* pointer);
  const Type* ternary(ast::Expr& e);
  const Type* cast(ast::Expr& e);
  // check_memory.cpp: pointers, arrays, members.
  const Type* member(ast::Expr& e, bool forAssignment);
  const Type* dereference(ast::Expr& e);
  const Type* addressOf(ast::Expr& e);
  const Type* arrayIndex(ast::Expr& e);
  const Type* pointerArithmetic(ast::Expr& e);
  // check_translators.cpp: inline, translator and xlate.
  bool checkInline(ast::InlineDecl& decl);
  std::string identifierKind(const std::string& name);
  bool checkTranslator(ast::TranslatorDecl& decl);
  const Type* xlate(ast::Expr& e);
  // `pointerForm`: the member is read with -> (xlate<T *>) rather than .
  const Type* translatedMember(ast::Expr& e, const ast::Expr& xlateExpr, bool pointerForm);
  const Type* call(ast::Expr& e);
  bool arraysAsPointers(ast::Expr& e);
  // ---- subroutines.cpp: DTrace's subroutines ----
  const Type* subroutine(ast::Expr& e);
  // The type of a call of one of these subroutines, or null after an error.
  const Type* stringSubroutine(ast::Expr& e);
  const Type* memorySubroutine(ast::Expr& e);
  const Type* notASubroutine(ast::Expr& e);  // the error for a name no subroutine has
  // What the checker rewrites a D form into (s[i], s + i, ...): a call of
  // an internal subroutine, its operands the form's.
  static void becomeInternalCall(ast::Expr& e, ir::Subroutine subr);
  bool prototypeArity(ast::Expr& e, size_t min, size_t max);
  bool prototypeArg(ast::Expr& e, size_t i, bool ok, const char* prototype);
  void castToParameter(ast::ExprPtr& arg, std::string_view parameter);
  bool stringArg(ast::Expr& e, size_t i);
  // A call of one Linux cannot give: null after its error, or, for a
  // destructive one, void, its refusal kept for the end of the check.
  const Type* unavailableSubroutine(ast::Expr& e);
  // ---- end of subroutines.cpp ----
  const Type* associativeRead(ast::Expr& index);
  // ---- check_builtins.cpp: built-in arrays (args[], uregs[]) ----
 public:
  // args[] in a clause takes its types from the probes its descriptions
  // match, which the session knows: it answers through an ArgsSource.
  struct ProbeArg {
    std::string type;  // the C type, as the provider names it ("const char *")
    uint32_t size = 8;
    bool isSigned = false;
    // The type args[n] has when a translator presents it ("psinfo_t *"),
    // or "string" for a string; empty when args[n] is the C type.
    std::string translated{};
    int translatedFrom = -1;  // the native argument it comes from; -1: n
  };
  struct DescriptionArgs {
    std::string description;     // provider:module:function:name, for messages
    bool stable = false;         // false: it matches no probe, or an unstable set
    std::vector<ProbeArg> args;  // the typed arguments of the probe it stands for
  };
  class ArgsSource {
   public:
    virtual ~ArgsSource() = default;
    // One entry per probe description of the clause, in order.
    virtual std::vector<DescriptionArgs> argsOf(const ast::ProbeClause& clause) = 0;
  };
  // Before check(): the program whose clauses `source` describes. Register
  // names (R_PC, ...) in its clauses become integer constants here.
  void prepareBuiltins(ast::Program& program, ArgsSource* source);

 private:
  const Type* builtinArray(ast::Expr& index);
  const Type* argsElement(ast::Expr& index, int64_t n);
  // args[n] of a translated argument: the expression it stands for.
  const Type* translatedArg(ast::Expr& index, int64_t n, const DescriptionArgs& described);
  const Type* uregsElement(ast::Expr& index, int64_t n);
  const Type* probeArgType(const ProbeArg& arg);
  const ast::ProbeClause* clauseOf(const ast::Expr& e);
  ArgsSource* argsSource_ = nullptr;
  std::map<const ast::Expr*, const ast::ProbeClause*> argsClauses_;  // each args[ ] use
  // Struct, union and enum bodies already defined: a declaration with several
  // declarators (struct s { ... } a, b;) resolves its specifier once for each.
  std::map<const void*, const Type*> definedBodies_;
  std::map<const ast::ProbeClause*, std::vector<DescriptionArgs>> clauseArgs_;
  // ---- end of check_builtins.cpp ----
  bool checkKeys(Variable& array, ast::Expr& index);
  static std::string keyMismatch(const std::string& array, size_t i, const Type* prototype,
                                 const Type* key);
  void kernelVariableError(const ast::Expr& e);
  static const std::string* scopeOf(const ast::Expr& e);  // "this"/"self" of this->x, self->x
  const Type* localArrayError(const ast::Expr& name);
  void arrayAsScalarError(const ast::Expr& e);
  const Type* intLiteral(ast::Expr& e);

  // The variable an assignment target names, created on first assignment.
  Variable* lvalueVariable(ast::Expr& target, const Type* valueType, ast::Op op);
  void declareUnreferenced(ast::Expr& operand);
  bool refuseTranslatedResult(const ast::Expr& e);
  const Type* lvalueType(ast::Expr& target, const Type* valueType, ast::Op op);
  bool namesAssociative(const ast::Expr& base);
  bool reachedThroughBuiltin(const ast::Expr& target) const;
  bool keyTypeError(const ast::Expr& key, const Type* t, size_t n, const char* indexed);
  bool checkKeyCount(const ast::Expr& index);
  // check_types.cpp: types written in the program.
  const Type* resolveTypeName(const ast::TypeName& tn);
  // The type of `d`'s first `steps` steps (an associative array's value
  // type leaves its key list out).
  const Type* resolveDeclared(const ast::DeclSpec& spec, const ast::Declarator& d,
                              size_t steps = SIZE_MAX);
  bool sameDeclaration(const Variable& old, const Type* type,
                       const std::vector<const Type*>& keyTypes, const ast::Declarator& d);
  bool checkTypeAttributes(const ast::DeclSpec& spec);
  const Type* basicType(const ast::DeclSpec& spec);
  const Type* structType(const ast::StructSpec& spec);
  const Type* enumType(const ast::EnumSpec& spec);
  const Type* offsetOf(ast::Expr& e);
  // illumos's dt_node_is_argcompat: may `from` be assigned (or passed) to
  // an object of type `to`? Constant 0 is a null pointer.
  bool assignable(const Type* to, const ast::Expr& from) const;
  // illumos's dt_node_is_ptrcompat: pointers (or arrays) to compatible
  // types, either one void *, or one of them constant 0. `result` is the
  // more specific of the two types.
  bool pointerCompatible(const ast::Expr& a, const ast::Expr& b,
                         const Type** result = nullptr) const;
  // Rewrites of operands that keep codegen unaware of the rule: a string
  // compared with or assigned 0 is compared with or assigned "", and an
  // unsigned bit-field narrower than int is converted to int first.
  void replaceWithEmptyString(ast::ExprPtr& operand);
  void convertStringPointer(ast::ExprPtr& value, const Type* to);
  void promoteBitField(ast::ExprPtr& operand);
  // p += n, p -= n: n becomes n * sizeof (*p), as an unsigned long.
  void scalePointerIncrement(ast::Expr& assign, const Type* pointer);
  // A translated pointer (xlate <T *>, curpsinfo) is only a value to -> and *.
  bool refuseTranslatedPointer(const ast::Expr& e, const char* user = nullptr);
  bool refuseTranslatedOperands(const ast::Expr& e);
  const Type* sizeofType(ast::Expr& e, const Type* of, bool bitField);
  void fold(ast::Expr& e);

  bool error(const char* tag, SourceLoc loc, std::string message);
  // An error DTrace reports after cooking the clause (dt_compile_agg,
  // dt_action_*): with no "in action list:" region, whatever its tag.
  bool errorOutsideRegion(const char* tag, SourceLoc loc, std::string message);

  Definitions ownDefinitions_;
  Definitions& defs_;
  const Variable* translatorScope_ = nullptr;  // the input while checking a translator
  const std::vector<const Variable*>* inlineScope_ = nullptr;  // an inline array's parameters
  const Type* inlineArrayRead(ast::Expr& e);

  TypeTable& types_;
  SymbolTable& symbols_;
  const MacroTable& macros_;
  Diagnostics& diags_;
  const char* region_ = nullptr;             // the part of a clause being checked
  const ast::Expr* nestedAction_ = nullptr;  // the first action used as a value
  struct Refusal {
    SourceLoc loc;
    std::string message;
  };
  std::optional<Refusal> unavailableAction_;  // the first destructive action Linux lacks
  std::set<std::string> externs_;             // names declared extern
  StackOptions stackOptions_;
  uint64_t scratchSize_ = UINT64_MAX;
  uint32_t version_ = kLatestDVersion;
  const ast::Expr* storingTo_ = nullptr;  // the target lvalueType() checks
  bool isBuiltinIdentifier(const std::string& name);
  const Variable* builtinVariable(std::string_view name);
};

// Functions that record data (DTrace's actions) and aggregating functions.
bool isActionName(std::string_view name);
// DTrace's functions: subroutines, actions and aggregating functions.
bool isFunctionName(std::string_view name);
// Destructive subroutines Linux cannot perform (panic, copyout, ...): valid
// D, refused once the whole program is checked.
bool isUnavailableDestructive(std::string_view name);
// The expression an inline name stands for, through any chain of inlines.
const ast::Expr& throughInlines(const ast::Expr& e);
// A call of an action (trace(), printf(), ...).
bool isActionCall(const ast::Expr& e);

// A whole global or clause-local string variable, whose storage carries a
// NULL marker (ir::kNullMarkerSize); not a member or element of one.
bool hasNullMarker(const ast::Expr& e);
// An xlate<T *>(...) result, directly or through an inline.
bool isTranslatedPointer(const ast::Expr& e);
// Built-in variables indexed like arrays: args[], uregs[].
bool isBuiltinArray(std::string_view name);
bool isAggregatingFunction(std::string_view name, ir::AggFunc* func = nullptr);
// How printf's checks see a value of type t.
ir::PrintfArg printfArgOf(const Type* t);
// stack(), ustack(), jstack(), sym(), func(), mod(), usym(), ufunc(),
// umod(), uaddr(): actions whose calls are also values in keys and printf().
bool isCodeAddressCall(const ast::Expr& e);
// dt_node_is_posconst: a non-zero constant, positive if signed.
bool isPositiveConstant(const ast::Expr& e);

}  // namespace dtrace::sema
