#include "driver/variable_table.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <vector>

#include "print/appendf.h"

namespace dtrace::driver {

namespace {

using ast::Expr;
using ast::ExprKind;
using sema::Variable;

constexpr uint8_t kRead = 1, kWrite = 2;

struct VariableUse {
  const Variable* variable;
  uint8_t access = 0;
  uint32_t firstLine = 0, lastLine = 0;
};

// The variables a clause names, in the order it first names them, with
// how it uses each: read (r) or written (w) as DIF would. A member or an
// element of a struct or array variable is reached through the
// variable's address, which reads it, as a stored element of an
// associative array writes the array.
class UseCollector {
 public:
  std::vector<VariableUse> collect(const ast::ProbeClause& clause) {
    if (clause.predicate) expr(*clause.predicate, kRead);
    statements(clause.body);
    return std::move(uses_);
  }

 private:
  std::vector<VariableUse> uses_;

  void statements(const std::vector<ast::StmtPtr>& body) {
    for (const auto& s : body) {
      if (s->expr) expr(*s->expr, kRead);
      statements(s->body);
      statements(s->elseBody);
    }
  }

  void note(const Variable* v, uint8_t access, const Expr& where) {
    if (v->kind == Variable::Kind::Aggregation || v->kind == Variable::Kind::TranslatorInput) {
      return;
    }
    auto it = std::find_if(uses_.begin(), uses_.end(),
                           [v](const VariableUse& u) { return u.variable == v; });
    if (it == uses_.end()) {
      uses_.push_back({v, 0, where.loc.line, where.loc.line});
      it = uses_.end() - 1;
    }
    it->access |= access;
    it->firstLine = std::min(it->firstLine, where.loc.line);
    it->lastLine = std::max(it->lastLine, where.loc.line);
  }

  // The variable `e` itself names: x, self->x, this->x (not a member of one).
  static const Variable* named(const Expr& e) {
    if (!e.variable) return nullptr;
    if (e.kind == ExprKind::Identifier) return e.variable;
    if (e.kind == ExprKind::Member && e.isArrow && !e.operands.empty() &&
        e.operands[0]->kind == ExprKind::Identifier &&
        (e.operands[0]->text == "self" || e.operands[0]->text == "this")) {
      return e.variable;
    }
    return nullptr;
  }

  void expr(const Expr& e, uint8_t access) {
    if (const Variable* v = named(e)) {
      note(v, access, e);
      return;
    }
    switch (e.kind) {
      case ExprKind::Assign:
        expr(*e.operands[0], e.op == ast::Op::Assign ? kWrite : kRead | kWrite);
        expr(*e.operands[1], kRead);
        return;
      case ExprKind::Unary:
        if (e.op == ast::Op::PreInc || e.op == ast::Op::PreDec || e.op == ast::Op::PostInc ||
            e.op == ast::Op::PostDec) {
          expr(*e.operands[0], kRead | kWrite);
          return;
        }
        break;
      case ExprKind::Index:
        if (const Variable* v = named(*e.operands[0]); v && v->isKeyed()) {
          note(v, access, *e.operands[0]);
          for (size_t i = 1; i < e.operands.size(); i++) expr(*e.operands[i], kRead);
          return;
        }
        break;
      case ExprKind::SizeofExpr:
      case ExprKind::Offsetof:
        return;  // names a type, evaluates nothing
      default:
        break;
    }
    for (const auto& o : e.operands) expr(*o, kRead);
  }
};

// DTrace's DIF identifiers of the built-in variables it has as DIF
// variables; the others (cpu, cwd, curpsinfo ...) are inlines of its D
// library there, and so are not listed.
std::optional<uint32_t> builtinId(const Variable& v) {
  using B = sema::Builtin;
  switch (v.builtin) {
    case B::Args:
      return 0x0000;
    case B::Uregs:
      return 0x0002;
    case B::Curthread:
      return 0x0100;
    case B::Timestamp:
      return 0x0101;
    case B::Vtimestamp:
      return 0x0102;
    case B::Ipl:
      return 0x0103;
    case B::Epid:
      return 0x0104;
    case B::Id:
      return 0x0105;
    case B::Arg:
      return 0x0106 + v.argIndex;
    case B::Stackdepth:
      return 0x0110;
    case B::Caller:
      return 0x0111;
    case B::Probeprov:
      return 0x0112;
    case B::Probemod:
      return 0x0113;
    case B::Probefunc:
      return 0x0114;
    case B::Probename:
      return 0x0115;
    case B::Pid:
      return 0x0116;
    case B::Tid:
      return 0x0117;
    case B::Execname:
      return 0x0118;
    case B::Walltimestamp:
      return 0x011a;
    case B::Ustackdepth:
      return 0x011b;
    case B::Ucaller:
      return 0x011c;
    case B::Ppid:
      return 0x011d;
    case B::Uid:
      return 0x011e;
    case B::Gid:
      return 0x011f;
    case B::Errno:
      return 0x0120;
    default:
      return std::nullopt;
  }
}

// Variables a program defines are numbered from DIF_VAR_OTHER_UBASE in
// each scope, in the order the compiler met them.
constexpr uint32_t kFirstUserId = 0x500;

uint32_t indexIn(const std::deque<Variable>& scope, const Variable* v) {
  for (size_t i = 0; i < scope.size(); i++) {
    if (&scope[i] == v) return static_cast<uint32_t>(i);
  }
  return 0;
}

const char* kindName(const sema::Type& t) {
  switch (t.kind) {
    case sema::Type::Kind::Integer:
      return "integer";
    case sema::Type::Kind::Enum:
      return "enum";
    case sema::Type::Kind::Pointer:
      return "pointer";
    case sema::Type::Kind::Array:
      return "array";
    case sema::Type::Kind::Struct:
      return "struct";
    case sema::Type::Kind::Union:
      return "union";
    case sema::Type::Kind::Float:
      return "float";
    case sema::Type::Kind::Function:
      return "function";
    default:
      return "unknown";
  }
}

// As DIF types read: "D type (integer) (size 4)", "D type (struct) by ref
// (size 12)", "string (unknown) by ref (size 256)".
std::string describeType(const sema::Type* t) {
  if (!t) return "D type (unknown) (size 0)";
  std::string out;
  if (t->isString()) {
    // DTrace gives a string strsize bytes; its buffer here has one more, for the NUL.
    print::appendf(out, "string (unknown) by ref (size %u)", t->size - 1);
  } else {
    const bool byRef = t->isArray() || t->isStruct();
    print::appendf(out, "D type (%s)%s (size %u)", kindName(*t), byRef ? " by ref" : "", t->size);
  }
  return out;
}

}  // namespace

std::string formatVariableTable(const ast::ProbeClause& clause, sema::SymbolTable& symbols,
                                const codegen::Layout& layout) {
  std::vector<VariableUse> uses = UseCollector().collect(clause);
  std::string out;
  for (const VariableUse& use : uses) {
    const Variable& v = *use.variable;
    std::optional<uint32_t> id;
    std::string offset;
    const char* scope = "glb";
    switch (v.kind) {
      case Variable::Kind::Builtin:
        id = builtinId(v);
        break;
      case Variable::Kind::Global:
        id = kFirstUserId + indexIn(symbols.globals(), &v);
        offset = std::to_string(v.offset - ir::kFirstGlobalOffset);
        break;
      case Variable::Kind::Associative:
        id = kFirstUserId + indexIn(symbols.globals(), &v);
        offset = "0";  // its value starts its map element's value
        break;
      case Variable::Kind::ClauseLocal:
        id = kFirstUserId + indexIn(symbols.clauseLocals(), &v);
        offset = std::to_string(v.offset - layout.localsOffset);
        scope = "loc";
        break;
      case Variable::Kind::ThreadLocal:
        id = kFirstUserId + indexIn(symbols.threadLocals(), &v);
        offset = "0";
        scope = "tls";
        break;
      default:
        break;
    }
    if (!id) continue;
    const bool array =
        v.isKeyed() || v.builtin == sema::Builtin::Args || v.builtin == sema::Builtin::Uregs;
    std::string flags;
    if (use.access & kRead) flags = "r";
    if (use.access & kWrite) flags += flags.empty() ? "w" : "/w";
    std::string lines;
    print::appendf(lines, "[%u-%u]", use.firstLine, use.lastLine);
    print::appendf(out, "%-16s %-4x %-6s %-3s %-3s %-11s %-4s %s\n", v.name.c_str(), *id,
                   offset.c_str(), array ? "arr" : "scl", scope, lines.c_str(), flags.c_str(),
                   describeType(v.type).c_str());
  }
  if (out.empty()) return out;
  std::string table;
  print::appendf(table, "%-16s %-4s %-6s %-3s %-3s %-11s %-4s %s\n", "NAME", "ID", "OFFSET", "KND",
                 "SCP", "LINES", "FLAG", "TYPE");
  return table + out + "\n";
}

}  // namespace dtrace::driver
