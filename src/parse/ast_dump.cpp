#include "parse/ast_dump.h"

#include <cstdio>

namespace dtrace::ast {

namespace {

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

const char* storageName(StorageClass s) {
  switch (s) {
    case StorageClass::None:
      return "";
    case StorageClass::Typedef:
      return "typedef";
    case StorageClass::Extern:
      return "extern";
    case StorageClass::Static:
      return "static";
    case StorageClass::Register:
      return "register";
    case StorageClass::Auto:
      return "auto";
    case StorageClass::Self:
      return "self";
    case StorageClass::This:
      return "this";
  }
  return "";
}

void appendWord(std::string& out, const std::string& w) {
  if (w.empty()) return;
  if (!out.empty()) out += ' ';
  out += w;
}

// " (param ...) (param ...) ...", each parameter with its declarator.
std::string dumpParams(const std::vector<std::shared_ptr<ParamDecl>>& params, bool varargs) {
  std::string out;
  for (const auto& p : params) {
    out += " (param " + dumpDeclSpec(p->spec);
    std::string d = dumpDeclarator(p->declarator);
    if (d != "(decl)") out += " " + d;
    out += ")";
  }
  if (varargs) out += " ...";
  return out;
}

std::string dumpSteps(const std::vector<DeclaratorStep>& steps) {
  std::string out;
  for (const DeclaratorStep& s : steps) {
    std::string step;
    switch (s.kind) {
      case DeclaratorStep::Kind::Pointer:
        step = "*";
        if (s.isConst) step += "const";
        if (s.isVolatile) step += "volatile";
        if (s.isRestrict) step += "restrict";
        break;
      case DeclaratorStep::Kind::Array:
        step = "[";
        if (s.arraySize) step += dumpExpr(*s.arraySize);
        for (size_t i = 0; i < s.arrayKeys.size(); ++i) {
          if (i) step += ", ";
          step += dumpTypeName(*s.arrayKeys[i]);
        }
        step += "]";
        break;
      case DeclaratorStep::Kind::Function:
        step = "(fn" + dumpParams(s.params, s.varargs) + ")";
        break;
    }
    appendWord(out, step);
  }
  return out;
}

std::string dumpBody(const char* head, const std::vector<StmtPtr>& body) {
  std::string out = std::string("(") + head;
  for (const StmtPtr& s : body) out += " " + dumpStmt(*s);
  return out + ")";
}

}  // namespace

std::string dumpDeclSpec(const DeclSpec& spec) {
  std::string out;
  appendWord(out, storageName(spec.storage));
  if (spec.isConst) appendWord(out, "const");
  if (spec.isVolatile) appendWord(out, "volatile");
  if (spec.isRestrict) appendWord(out, "restrict");
  for (const std::string& w : spec.basicWords) appendWord(out, w);
  appendWord(out, spec.typedefName);
  if (spec.structSpec) {
    const StructSpec& s = *spec.structSpec;
    appendWord(out, s.isUnion ? "union" : "struct");
    appendWord(out, s.tag);
    if (s.hasBody) {
      std::string body = "{";
      for (const StructMember& m : s.members) {
        body += "(member " + dumpDeclSpec(m.spec) + " " + dumpDeclarator(m.declarator);
        if (m.bitWidth) body += " : " + dumpExpr(*m.bitWidth);
        body += ")";
      }
      appendWord(out, body + "}");
    }
  }
  if (spec.enumSpec) {
    const EnumSpec& e = *spec.enumSpec;
    appendWord(out, "enum");
    appendWord(out, e.tag);
    if (e.hasBody) {
      std::string body = "{";
      for (size_t i = 0; i < e.members.size(); ++i) {
        if (i) body += ", ";
        body += e.members[i].name;
        if (e.members[i].value) body += "=" + dumpExpr(*e.members[i].value);
      }
      appendWord(out, body + "}");
    }
  }
  return out;
}

std::string dumpDeclarator(const Declarator& d) {
  std::string out = "(decl";
  if (!d.name.empty()) out += " " + d.name;
  std::string steps = dumpSteps(d.steps);
  if (!steps.empty()) out += " " + steps;
  return out + ")";
}

std::string dumpTypeName(const TypeName& t) {
  std::string out = "(type " + dumpDeclSpec(t.spec);
  std::string steps = dumpSteps(t.declarator.steps);
  if (!steps.empty()) out += " " + steps;
  return out + ")";
}

std::string dumpExpr(const Expr& e) {
  auto operands = [&](std::string out) {
    for (const ExprPtr& o : e.operands) out += " " + dumpExpr(*o);
    return out + ")";
  };
  switch (e.kind) {
    case ExprKind::IntLiteral:
      return std::to_string(e.intValue);
    case ExprKind::CharLiteral:
      return "(char " + std::to_string(e.intValue) + ")";
    case ExprKind::StringLiteral:
      return quote(e.text);
    case ExprKind::Identifier:
    case ExprKind::AggregationRef:
      return e.text;
    case ExprKind::MacroVar:
      return (e.isStringMacro ? "$$" : "$") + e.text;
    case ExprKind::Unary: {
      std::string op = opSpelling(e.op);
      if (e.op == Op::PostInc || e.op == Op::PostDec) op = "post" + op;
      return operands("(" + op);
    }
    case ExprKind::Binary:
    case ExprKind::Assign:
      return operands(std::string("(") + opSpelling(e.op));
    case ExprKind::Ternary:
      return operands("(?");
    case ExprKind::Cast:
      return operands("(cast " + dumpTypeName(*e.typeName));
    case ExprKind::SizeofType:
      return "(sizeof " + dumpTypeName(*e.typeName) + ")";
    case ExprKind::SizeofExpr:
      return operands("(sizeof");
    case ExprKind::Offsetof:
      return "(offsetof " + dumpTypeName(*e.typeName) + " " + e.text + ")";
    case ExprKind::Stringof:
      return operands("(stringof");
    case ExprKind::Xlate:
      return operands("(xlate " + dumpTypeName(*e.typeName));
    case ExprKind::Call:
      return operands("(call " + e.text);
    case ExprKind::Index:
      return operands("(index");
    case ExprKind::Member: {
      std::string out = std::string("(") + (e.isArrow ? "->" : ".");
      return out + " " + dumpExpr(*e.operands[0]) + " " + e.text + ")";
    }
  }
  return "?";
}

std::string dumpStmt(const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Expr:
      return dumpExpr(*s.expr);
    case StmtKind::Empty:
      return "(empty)";
    case StmtKind::Block:
      return dumpBody("block", s.body);
    case StmtKind::If: {
      std::string out = "(if " + dumpExpr(*s.expr) + " " + dumpBody("then", s.body);
      if (s.hasElse) out += " " + dumpBody("else", s.elseBody);
      return out + ")";
    }
  }
  return "?";
}

std::string dumpTopLevel(const TopLevel& item) {
  if (const auto* c = std::get_if<ProbeClause>(&item)) {
    std::string out = "(clause (probes";
    for (const ProbeSpec& p : c->probes) out += " " + quote(p.text);
    out += ")";
    if (c->predicate) out += " (pred " + dumpExpr(*c->predicate) + ")";
    return out + " " + dumpBody("body", c->body) + ")";
  }
  if (const auto* d = std::get_if<Declaration>(&item)) {
    std::string out = "(declaration " + dumpDeclSpec(d->spec);
    for (const Declarator& decl : d->declarators) out += " " + dumpDeclarator(decl);
    return out + ")";
  }
  if (const auto* in = std::get_if<InlineDecl>(&item)) {
    return "(inline " + dumpDeclSpec(in->spec) + " " + dumpDeclarator(in->declarator) + " " +
           dumpExpr(*in->value) + ")";
  }
  if (const auto* x = std::get_if<TranslatorDecl>(&item)) {
    std::string out = "(translator " + dumpTypeName(*x->output) + " " + dumpTypeName(*x->input) +
                      " " + x->inputName;
    for (const auto& m : x->members) out += " (" + m.name + " " + dumpExpr(*m.value) + ")";
    return out + ")";
  }
  if (const auto* pv = std::get_if<ProviderDecl>(&item)) {
    std::string out = "(provider " + pv->name;
    for (const ProviderProbeDecl& probe : pv->probes) {
      out += " (probe " + probe.name + dumpParams(probe.nativeArgs, probe.nativeVarargs);
      if (probe.hasTranslated) {
        out += " :" + dumpParams(probe.translatedArgs, probe.translatedVarargs);
      }
      out += ")";
    }
    return out + ")";
  }
  const auto& p = std::get<Pragma>(item);
  std::string out = "(pragma";
  for (const std::string& w : p.words) out += " " + w;
  return out + ")";
}

std::string dumpProgram(const Program& p) {
  std::string out;
  for (const TopLevel& item : p.items) out += dumpTopLevel(item) + "\n";
  return out;
}

}  // namespace dtrace::ast
