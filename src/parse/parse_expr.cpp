// D expressions: C's operators and precedence plus ^^, stringof, xlate,
// offsetof, aggregations, macro variables and multi-key subscripts.
#include <utility>

#include "parse/parser_impl.h"

namespace dtrace::parse {

namespace {

using ast::ExprKind;
using ast::ExprPtr;
using ast::Op;

ExprPtr makeExpr(ExprKind kind, SourceLoc loc) { return std::make_unique<ast::Expr>(kind, loc); }

ExprPtr makeUnary(Op op, SourceLoc loc, ExprPtr operand) {
  ExprPtr e = makeExpr(ExprKind::Unary, loc);
  e->op = op;
  e->operands.push_back(std::move(operand));
  return e;
}

ExprPtr makeBinary(ExprKind kind, Op op, SourceLoc loc, ExprPtr lhs, ExprPtr rhs) {
  ExprPtr e = makeExpr(kind, loc);
  e->op = op;
  e->operands.push_back(std::move(lhs));
  e->operands.push_back(std::move(rhs));
  return e;
}

struct BinaryOp {
  const char* spelling;
  Op op;
  int precedence;  // higher binds tighter; all are left-associative
};

constexpr BinaryOp kBinaryOps[] = {
    {"||", Op::LogicalOr, 1}, {"^^", Op::LogicalXor, 2}, {"&&", Op::LogicalAnd, 3},
    {"|", Op::BitOr, 4},      {"^", Op::BitXor, 5},      {"&", Op::BitAnd, 6},
    {"==", Op::Eq, 7},        {"!=", Op::Ne, 7},         {"<", Op::Lt, 8},
    {"<=", Op::Le, 8},        {">", Op::Gt, 8},          {">=", Op::Ge, 8},
    {"<<", Op::Shl, 9},       {">>", Op::Shr, 9},        {"+", Op::Add, 10},
    {"-", Op::Sub, 10},       {"*", Op::Mul, 11},        {"/", Op::Div, 11},
    {"%", Op::Mod, 11},
};

constexpr std::pair<const char*, Op> kAssignOps[] = {
    {"=", Op::Assign},     {"*=", Op::MulAssign}, {"/=", Op::DivAssign},  {"%=", Op::ModAssign},
    {"+=", Op::AddAssign}, {"-=", Op::SubAssign}, {"<<=", Op::ShlAssign}, {">>=", Op::ShrAssign},
    {"&=", Op::AndAssign}, {"^=", Op::XorAssign}, {"|=", Op::OrAssign},
};

constexpr std::pair<const char*, Op> kUnaryOps[] = {
    {"&", Op::AddressOf}, {"*", Op::Deref},  {"+", Op::Plus},
    {"-", Op::Negate},    {"~", Op::BitNot}, {"!", Op::LogicalNot},
};

// After "." and "->" any keyword is a member name (Linux has members called
// counter, string, probe...), as Oracle's lexer reads only an identifier there.
bool isKeywordMemberName(const Token& t) { return t.kind == TokKind::Keyword; }

}  // namespace

ExprPtr Parser::parseExpression() {
  Nesting nesting(*this);
  ExprPtr lhs = parseAssignment();
  while (lhs && atPunct(",")) {
    if (!nesting.deeper()) return nullptr;
    SourceLoc loc = tok().loc;
    advance();
    ExprPtr rhs = parseAssignment();
    if (!rhs) return nullptr;
    lhs = makeBinary(ExprKind::Binary, Op::Comma, loc, std::move(lhs), std::move(rhs));
  }
  return lhs;
}

ExprPtr Parser::parseAssignment() {
  Nesting nesting(*this);
  if (!nesting.deeper()) return nullptr;
  ExprPtr lhs = parseConditional();
  if (!lhs) return nullptr;
  const Token& t = tok();
  Op op = Op::None;
  if (t.kind == TokKind::Punct) {
    for (const auto& [spelling, o] : kAssignOps) {
      if (t.text == spelling) op = o;
    }
  }
  if (op == Op::None) return lhs;
  // Only a unary expression may be assigned to, as in C's grammar.
  bool assignable = parenthesized_.count(lhs.get()) != 0 ||
                    (lhs->kind != ExprKind::Binary && lhs->kind != ExprKind::Ternary &&
                     lhs->kind != ExprKind::Cast && lhs->kind != ExprKind::Assign);
  if (!assignable) {
    syntaxError();
    return nullptr;
  }
  SourceLoc loc = t.loc;
  advance();
  ExprPtr rhs = parseAssignment();
  if (!rhs) return nullptr;
  return makeBinary(ExprKind::Assign, op, loc, std::move(lhs), std::move(rhs));
}

ExprPtr Parser::parseConditional() {
  ExprPtr cond = parseBinary(1);
  if (!cond || !atPunct("?")) return cond;
  SourceLoc loc = tok().loc;
  advance();
  ExprPtr then = parseExpression();
  if (!then || !expect(":")) return nullptr;
  ExprPtr otherwise = parseConditional();
  if (!otherwise) return nullptr;
  ExprPtr e = makeExpr(ExprKind::Ternary, loc);
  e->operands.push_back(std::move(cond));
  e->operands.push_back(std::move(then));
  e->operands.push_back(std::move(otherwise));
  return e;
}

// Precedence climbing over the left-associative binary operators.
ExprPtr Parser::parseBinary(int minPrecedence) {
  Nesting nesting(*this);
  ExprPtr lhs = parseCast();
  while (lhs) {
    const Token& t = tok();
    if (t.kind != TokKind::Punct) break;
    const BinaryOp* found = nullptr;
    for (const BinaryOp& b : kBinaryOps) {
      if (t.text == b.spelling) found = &b;
    }
    if (found == nullptr || found->precedence < minPrecedence) break;
    if (!nesting.deeper()) return nullptr;
    advance();
    ExprPtr rhs = parseBinary(found->precedence + 1);
    if (!rhs) return nullptr;
    // DTrace's parser builds the node when it sees the token after the
    // right operand: its errors are reported on that token's line.
    lhs = makeBinary(ExprKind::Binary, found->op, tok().loc, std::move(lhs), std::move(rhs));
  }
  return lhs;
}

ExprPtr Parser::parseCast() {
  Nesting nesting(*this);
  if (!nesting.deeper()) return nullptr;
  if (!atPunct("(") || !startsTypeName(peek())) return parseUnary();
  SourceLoc loc = tok().loc;
  advance();
  auto type = parseTypeName();
  if (!type || !expect(")")) return nullptr;
  ExprPtr operand = parseCast();
  if (!operand) return nullptr;
  // Built, as DTrace's parser builds it, on seeing the token after it.
  loc = tok().loc;
  ExprPtr e = makeExpr(ExprKind::Cast, loc);
  e->typeName = std::move(type);
  e->operands.push_back(std::move(operand));
  return e;
}

ExprPtr Parser::parseUnary() {
  Nesting nesting(*this);
  if (!nesting.deeper()) return nullptr;
  const Token& t = tok();
  SourceLoc loc = t.loc;
  if (isPunct(t, "++") || isPunct(t, "--")) {
    Op op = t.text == "++" ? Op::PreInc : Op::PreDec;
    advance();
    ExprPtr operand = parseUnary();
    return operand ? makeUnary(op, loc, std::move(operand)) : nullptr;
  }
  if (t.kind == TokKind::Punct) {
    for (const auto& [spelling, op] : kUnaryOps) {
      if (t.text != spelling) continue;
      advance();
      ExprPtr operand = parseCast();
      return operand ? makeUnary(op, loc, std::move(operand)) : nullptr;
    }
  }
  if (isKeyword(t, "sizeof")) {
    advance();
    if (atPunct("(") && startsTypeName(peek())) {
      advance();
      auto type = parseTypeName();
      if (!type || !expect(")")) return nullptr;
      ExprPtr e = makeExpr(ExprKind::SizeofType, loc);
      e->typeName = std::move(type);
      return e;
    }
    ExprPtr operand = parseUnary();
    if (!operand) return nullptr;
    ExprPtr e = makeExpr(ExprKind::SizeofExpr, loc);
    e->operands.push_back(std::move(operand));
    return e;
  }
  if (isKeyword(t, "stringof")) {
    advance();
    ExprPtr operand = parseUnary();
    if (!operand) return nullptr;
    ExprPtr e = makeExpr(ExprKind::Stringof, loc);
    e->operands.push_back(std::move(operand));
    return e;
  }
  return parsePostfix();
}

// Comma-separated assignment expressions up to `close`, appended to operands.
bool Parser::parseArguments(ast::Expr& into, std::string_view close) {
  if (atPunct(close)) return close == ")" ? expect(close) : syntaxError();
  for (;;) {
    ExprPtr arg = parseAssignment();
    if (!arg) return false;
    into.operands.push_back(std::move(arg));
    if (!accept(",")) break;
  }
  return expect(close);
}

bool Parser::parseMemberName(std::string& name) {
  const Token& t = tok();
  if (t.kind != TokKind::Ident && !isKeywordMemberName(t)) return syntaxError();
  name = t.text;
  advance();
  return true;
}

ExprPtr Parser::parsePostfix() {
  Nesting nesting(*this);
  ExprPtr e = parsePrimary();
  while (e) {
    if (!nesting.deeper()) return nullptr;
    const Token& t = tok();
    SourceLoc loc = t.loc;
    if (isPunct(t, "[")) {
      advance();
      ExprPtr index = makeExpr(ExprKind::Index, loc);
      index->operands.push_back(std::move(e));
      if (!parseArguments(*index, "]")) return nullptr;
      e = std::move(index);
    } else if (isPunct(t, "(")) {
      advance();
      ExprPtr call = makeExpr(ExprKind::Call, e->loc);
      call->text = e->text;
      if (!parseArguments(*call, ")")) return nullptr;
      // dt_node_func(): only a name (parenthesized or not) can be called.
      if (e->kind != ExprKind::Identifier) {
        error("D_FUNC_IDENT", loc, "function designator is not of function type");
        return nullptr;
      }
      e = std::move(call);
    } else if (isPunct(t, ".") || isPunct(t, "->")) {
      bool arrow = t.text == "->";
      advance();
      ExprPtr member = makeExpr(ExprKind::Member, loc);
      member->isArrow = arrow;
      if (!parseMemberName(member->text)) return nullptr;
      member->operands.push_back(std::move(e));
      e = std::move(member);
    } else if (isPunct(t, "++") || isPunct(t, "--")) {
      Op op = t.text == "++" ? Op::PostInc : Op::PostDec;
      advance();
      e = makeUnary(op, loc, std::move(e));
    } else {
      break;
    }
  }
  return e;
}

ExprPtr Parser::parsePrimary() {
  const Token& t = tok();
  SourceLoc loc = t.loc;
  ExprPtr e;
  switch (t.kind) {
    case TokKind::Ident:
      // A type name here cannot start anything else, so it is read as a
      // variable rather than refused.
      if (t.looksAssigned) variables_.insert(t.text);
      e = makeExpr(ExprKind::Identifier, loc);
      e->text = t.text;
      break;
    case TokKind::Agg:
      e = makeExpr(ExprKind::AggregationRef, loc);
      e->text = t.text;
      break;
    case TokKind::Int:
      e = makeExpr(ExprKind::IntLiteral, loc);
      e->text = t.text;
      e->intValue = t.value;
      e->suffixUnsigned = t.suffixUnsigned;
      e->suffixLongs = t.suffixLongs;
      e->decimal = t.decimal;
      // A macro argument "-5" is one operand: the negated constant.
      if (t.negated) e = makeUnary(Op::Negate, loc, std::move(e));
      break;
    case TokKind::Char:
      e = makeExpr(ExprKind::CharLiteral, loc);
      e->text = t.text;
      e->intValue = t.value;
      break;
    case TokKind::String:
      e = makeExpr(ExprKind::StringLiteral, loc);
      e->text = t.str;
      break;
    case TokKind::Macro:
      e = makeExpr(ExprKind::MacroVar, loc);
      e->text = t.str;
      e->isStringMacro = t.isStringMacro;
      break;
    case TokKind::Keyword:
      if (t.text == "self" || t.text == "this") {
        // Keywords, not variables: only `self->x` and `this->x` name one.
        e = makeExpr(ExprKind::Identifier, loc);
        e->text = t.text;
        advance();
        if (!atPunct("->")) {
          syntaxError();
          return nullptr;
        }
        return e;
      }
      if (t.text == "offsetof") {
        advance();
        if (!expect("(")) return nullptr;
        e = makeExpr(ExprKind::Offsetof, loc);
        e->typeName = parseTypeName();
        if (!e->typeName || !expect(",")) return nullptr;
        if (!parseMemberName(e->text)) return nullptr;
        while (accept(".")) {
          std::string part;
          if (!parseMemberName(part)) return nullptr;
          e->text += "." + part;
        }
        return expect(")") ? std::move(e) : nullptr;
      }
      if (t.text == "xlate") {
        advance();
        if (!expect("<")) return nullptr;
        e = makeExpr(ExprKind::Xlate, loc);
        e->typeName = parseTypeName();
        if (!e->typeName || !expect(">") || !expect("(")) return nullptr;
        ExprPtr operand = parseExpression();
        if (!operand || !expect(")")) return nullptr;
        e->operands.push_back(std::move(operand));
        return e;
      }
      syntaxError();
      return nullptr;
    case TokKind::Punct:
      if (t.text == "(") {
        advance();
        e = parseExpression();
        if (!e || !expect(")")) return nullptr;
        parenthesized_.insert(e.get());
        return e;
      }
      syntaxError();
      return nullptr;
    default:
      syntaxError();
      return nullptr;
  }
  advance();
  return e;
}

}  // namespace dtrace::parse
