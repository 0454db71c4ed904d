// The D abstract syntax tree, as the parser builds it. Later stages annotate
// expressions (type, constant value, resolved identifier) in place.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "util/diag.h"

namespace dtrace::sema {
struct Type;  // defined by src/sema; the parser never sets these
struct Variable;
struct Translator;
}  // namespace dtrace::sema

namespace dtrace::ir {
enum class Subroutine : uint8_t;  // defined by src/ir; the parser never sets it
}  // namespace dtrace::ir

namespace dtrace::ast {

struct Expr;
struct Stmt;
struct TypeName;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;

// ---- Declarations and types -------------------------------------------------

enum class StorageClass { None, Typedef, Extern, Static, Register, Auto, Self, This };

struct StructMember;
struct EnumMember {
  std::string name;
  ExprPtr value;  // null when the enumerator has no "= expr"
  SourceLoc loc;
};

// `struct tag { members }`, `union tag`, or `enum tag { ... }` as written in
// a declaration specifier. hasBody distinguishes a definition from a use.
struct StructSpec {
  bool isUnion = false;
  std::string tag;  // empty for an anonymous struct/union
  bool hasBody = false;
  std::vector<StructMember> members;
  SourceLoc loc;
  // The token after the tag (its "{" in a definition): where DTrace's
  // parser takes the specifier and checks it against the rest of the
  // declaration, so errors about the combination are on its line.
  SourceLoc specLoc;
};
struct EnumSpec {
  std::string tag;
  bool hasBody = false;
  std::vector<EnumMember> members;
  SourceLoc loc;
  SourceLoc specLoc;  // as StructSpec's
};

struct DeclSpec {
  StorageClass storage = StorageClass::None;
  bool isConst = false, isVolatile = false, isRestrict = false;
  // Basic type keywords in source order: "void", "char", "short", "int",
  // "long" (twice for long long), "float", "double", "signed", "unsigned",
  // "string" (D's built-in string type).
  std::vector<std::string> basicWords;
  // A typedef name, possibly module-scoped with backquotes (`vmlinux`u64 is
  // stored as "vmlinux`u64").
  std::string typedefName;
  std::shared_ptr<StructSpec> structSpec;  // struct or union
  std::shared_ptr<EnumSpec> enumSpec;
  SourceLoc loc;
};

// One step that derives a type from the type before it. A declarator lists
// its steps innermost first: for `int *a[4]` the steps are Pointer, then
// Array(4), giving "array of 4 pointers to int".
struct DeclaratorStep {
  enum class Kind { Pointer, Array, Function } kind = Kind::Pointer;
  // Pointer: qualifiers on the pointer itself (`int * const p`).
  bool isConst = false, isVolatile = false, isRestrict = false;
  // Array: a size expression (`[4]`), nothing (`[]`), or for D associative
  // arrays a list of key types (`int a[string, int]`).
  ExprPtr arraySize;
  std::vector<std::shared_ptr<TypeName>> arrayKeys;
  // Function: parameter types (with optional names), and `...`.
  std::vector<std::shared_ptr<struct ParamDecl>> params;
  bool varargs = false;
};

struct Declarator {
  std::string name;  // empty for an abstract declarator
  SourceLoc loc;
  std::vector<DeclaratorStep> steps;
};

struct ParamDecl {
  DeclSpec spec;
  Declarator declarator;
};

struct StructMember {
  DeclSpec spec;
  Declarator declarator;
  ExprPtr bitWidth;  // `int x : 3`; null when not a bit-field
  SourceLoc loc;
};

// A type written in an expression: cast, sizeof(type), offsetof, xlate, and
// translator headers.
struct TypeName {
  DeclSpec spec;
  Declarator declarator;  // abstract
  SourceLoc loc;
};

// ---- Expressions -------------------------------------------------------------

enum class ExprKind {
  IntLiteral,      // intValue, literal text in `text`, suffix flags
  CharLiteral,     // intValue holds the character value(s), text the spelling
  StringLiteral,   // text holds the decoded bytes
  Identifier,      // text: name (may be module-scoped: "vmlinux`jiffies")
  AggregationRef,  // text: "@name" or "@" for the anonymous aggregation
  MacroVar,        // text: "1", "target", "pid", ...; isStringMacro for $$1
  Unary,           // op, operands[0]
  Binary,          // op, operands[0..1]
  Assign,          // op (Assign or compound), operands[0] = lvalue, [1] = value
  Ternary,         // operands[0] ? operands[1] : operands[2]
  Cast,            // (typeName) operands[0]
  SizeofType,      // sizeof(typeName)
  SizeofExpr,      // sizeof expr -> operands[0]
  Offsetof,        // offsetof(typeName, text)  (text = member name, may be a.b)
  Stringof,        // stringof(expr) / stringof expr -> operands[0]
  Xlate,           // xlate<typeName>(operands[0])
  Call,            // text: function name, operands: arguments
  Index,           // operands[0][operands[1..]]  (arrays, assocs, aggregations)
  Member,          // operands[0].text or operands[0]->text (isArrow)
};

enum class Op {
  None,
  // unary
  Plus,
  Negate,
  LogicalNot,
  BitNot,
  Deref,
  AddressOf,
  PreInc,
  PreDec,
  PostInc,
  PostDec,
  // binary
  Mul,
  Div,
  Mod,
  Add,
  Sub,
  Shl,
  Shr,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  BitAnd,
  BitXor,
  BitOr,
  LogicalAnd,
  LogicalXor,
  LogicalOr,
  Comma,
  // assignment
  Assign,
  MulAssign,
  DivAssign,
  ModAssign,
  AddAssign,
  SubAssign,
  ShlAssign,
  ShrAssign,
  AndAssign,
  XorAssign,
  OrAssign,
};

const char* opSpelling(Op op);  // "+", "<<=", "++", ...
Op compoundBase(Op op);         // *= -> *, <<= -> <<, ...; Op::None for others

struct Expr {
  ExprKind kind;
  SourceLoc loc;
  Op op = Op::None;
  std::string text;
  uint64_t intValue = 0;
  // Integer literal suffixes and base, needed for C's literal typing rules.
  bool suffixUnsigned = false;
  int suffixLongs = 0;  // 0, 1 (l) or 2 (ll)
  bool decimal = true;  // false for octal and hex literals
  bool isArrow = false;
  bool isStringMacro = false;
  std::vector<ExprPtr> operands;
  std::shared_ptr<TypeName> typeName;

  // Annotations set by sema.
  const sema::Type* type = nullptr;
  std::optional<int64_t> constValue;
  const sema::Variable* variable = nullptr;  // what an identifier, self->x, this->x or @a names
  // A call of a subroutine: which one, resolved from its name once.
  std::optional<ir::Subroutine> subroutine;
  // A member of a struct held in a D variable (x.a, this->s.b, a[k].c):
  // `variable` is that variable, storageRoot the expression naming it, and
  // storageOffset the member's byte offset in the variable's value.
  const Expr* storageRoot = nullptr;
  uint32_t storageOffset = 0;
  // An object in kernel (or scratch) memory at an address the code computes:
  // *p, p->m, s.m of such an s, p[i].
  bool inMemory = false;
  // A bit-field member: bits [bitOffset, bitOffset + bitWidth) from the
  // member's first byte.
  uint32_t bitOffset = 0, bitWidth = 0;
  // p += n, p -= n: n already multiplied by the pointee's size (a clause
  // may be checked twice).
  bool countScaled = false;
  // An inline's name: the expression it stands for.
  const Expr* inlineValue = nullptr;
  // An element of an inline array (sum[a, b] of `inline int sum[int x,
  // int y] = x + y`): its parameters, bound to the keys (operands[1...])
  // while inlineValue is evaluated.
  std::vector<const sema::Variable*> inlineParams{};
  // A member of a translated struct (xlate<T>(x).m): the translator's
  // expression for m, evaluated with its input bound to `translatorInput`.
  const Expr* translatedMember = nullptr;
  const Expr* translatorInput = nullptr;
  // xlate<T>(x): the translator chosen. A whole translated struct
  // (xlate<T>(x) itself, or *p of p = xlate<T *>(x)) names that xlate here.
  const sema::Translator* translator = nullptr;
  const Expr* translation = nullptr;

  Expr(ExprKind k, SourceLoc l) : kind(k), loc(l) {}
};

// ---- Statements ---------------------------------------------------------------

enum class StmtKind { Expr, If, Block, Empty };

struct Stmt {
  StmtKind kind;
  SourceLoc loc;
  ExprPtr expr;                   // Expr: the expression; If: the condition
  std::vector<StmtPtr> body;      // Block: statements; If: the then-branch
  std::vector<StmtPtr> elseBody;  // If: the else-branch (empty when absent)
  bool hasElse = false;

  Stmt(StmtKind k, SourceLoc l) : kind(k), loc(l) {}
};

// ---- Top level ------------------------------------------------------------------

// A probe description as written: "syscall::read:entry", "BEGIN", "tick-1s",
// "fbt:vmlinux:*:entry". Fields are split on ':' with DTrace's rule that a
// description with fewer than four fields fills from the right (name, then
// function, module, provider); empty fields match anything.
struct ProbeSpec {
  std::string text;
  std::string provider, module, function, name;
  SourceLoc loc;
};

struct ProbeClause {
  std::vector<ProbeSpec> probes;
  ExprPtr predicate;  // null when absent
  std::vector<StmtPtr> body;
  SourceLoc loc;
};

// A declaration at file scope: `int x;`, `self int y;`, `typedef ...`,
// `struct s { ... };`, `int a[string];`, `extern int k;`.
struct Declaration {
  DeclSpec spec;
  std::vector<Declarator> declarators;  // may be empty (`struct s {...};`)
  SourceLoc loc;
};

// `inline type name = expr;`
struct InlineDecl {
  DeclSpec spec;
  Declarator declarator;
  ExprPtr value;
  SourceLoc loc;
};

// `translator out_type < in_type name > { member = expr; ... };`
struct TranslatorDecl {
  std::shared_ptr<TypeName> output;
  std::shared_ptr<TypeName> input;
  std::string inputName;
  struct Member {
    std::string name;
    ExprPtr value;
    SourceLoc loc;
  };
  std::vector<Member> members;
  SourceLoc loc;
  // The closing ";": DTrace checks the whole translator there, so errors
  // about it as a whole are reported on that line.
  SourceLoc endLoc;
};

// `#pragma D option name[=value]` and the other #pragma D forms, kept as
// words: {"option", "quiet"}, {"option", "bufsize=4m"}, {"depends_on", ...}.
struct Pragma {
  std::vector<std::string> words;
  SourceLoc loc;
};

// One probe of a provider definition: `probe query__start(char *, int);`,
// optionally with the types args[] gives it, `: (string, int)`. The name
// stays as written (DTrace's probe name turns each "__" into "-").
struct ProviderProbeDecl {
  std::string name;
  std::vector<std::shared_ptr<ParamDecl>> nativeArgs;
  bool nativeVarargs = false;
  bool hasTranslated = false;  // a `: ( ... )` list follows, possibly empty
  std::vector<std::shared_ptr<ParamDecl>> translatedArgs;
  bool translatedVarargs = false;
  SourceLoc loc;

  // Annotations set by sema (Checker::checkProviders): the type of each
  // argument, in the order of nativeArgs and translatedArgs.
  std::vector<const sema::Type*> nativeTypes{};
  std::vector<const sema::Type*> translatedTypes{};
};

// `provider name { probe ...; ... };`: the user-space probes a program
// declares for dtrace -h and -G. Tracing programs accept and ignore it.
struct ProviderDecl {
  std::string name;
  std::vector<ProviderProbeDecl> probes;
  SourceLoc loc;
};

using TopLevel =
    std::variant<ProbeClause, Declaration, InlineDecl, TranslatorDecl, Pragma, ProviderDecl>;

struct Program {
  std::vector<TopLevel> items;
};

}  // namespace dtrace::ast
