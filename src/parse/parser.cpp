#include "parse/parser.h"

#include <array>
#include <cstring>
#include <utility>

#include "parse/parser_impl.h"

namespace dtrace::parse {

ParseResult parseProgram(std::string_view source, const ParseOptions& options) {
  Parser parser(source, options);
  return parser.run();
}

Parser::Parser(std::string_view source, const ParseOptions& options)
    : lexer_(source, options.macros),
      options_(options),
      ambiguousAsProbes_(options.ambiguousAsProbes) {}

ParseResult Parser::run() {
  while (!failed()) {
    setMode(LexMode::Program);
    const Token& t = tok();
    flushPragmas();
    if (t.kind == TokKind::End) {
      result_.endLine = t.loc.line;
      break;
    }
    parseTopLevelItem();
  }
  if (!failed()) {
    flushPragmas();
  } else {
    // The pragmas read before the error, for a caller that acts on them
    // in order (DTrace's lexer does as it reads them).
    for (PragmaLine& p : lexer_.takePragmas()) pendingPragmas_.push_back(std::move(p));
    for (PragmaLine& p : pendingPragmas_) result_.pragmas.push_back(std::move(p));
  }
  for (size_t i : lexer_.referencedArgs()) result_.referencedArgs.insert(i);
  return std::move(result_);
}

// ---- tokens -------------------------------------------------------------------

const Token& Parser::tok() {
  if (failed_) return end_;
  if (ahead_.empty()) {
    ahead_.push_back(lexer_.next(mode_));
    for (PragmaLine& p : lexer_.takePragmas()) pendingPragmas_.push_back(std::move(p));
    const Token& t = ahead_.back();
    if (t.kind == TokKind::Error) {
      error(t.errTag, t.loc, t.errMessage);
      return end_;
    }
  }
  return ahead_.front();
}

const Token& Parser::peek() {
  tok();
  if (failed_) return end_;
  if (ahead_.size() < 2) {
    ahead_.push_back(lexer_.next(mode_));
    for (PragmaLine& p : lexer_.takePragmas()) pendingPragmas_.push_back(std::move(p));
    const Token& t = ahead_.back();
    if (t.kind == TokKind::Error) {
      error(t.errTag, t.loc, t.errMessage);
      return end_;
    }
  }
  return ahead_[1];
}

void Parser::advance() {
  tok();
  if (!ahead_.empty()) ahead_.pop_front();
}

// Tokens already read ahead in the other mode are read again from where the
// first of them started.
void Parser::setMode(LexMode mode) {
  if (mode == mode_) return;
  mode_ = mode;
  if (!ahead_.empty()) {
    lexer_.restore(ahead_.front().start);
    ahead_.clear();
  }
}

bool Parser::accept(std::string_view p) {
  if (!atPunct(p)) return false;
  advance();
  return true;
}

bool Parser::expect(std::string_view p) {
  if (accept(p)) return true;
  return syntaxError();
}

bool Parser::Nesting::deeper() {
  ++levels_;
  if (++p_.nesting_ <= kMaxNesting) return true;
  p_.error("D_SYNTAX", p_.tok().loc,
           "syntax error: nested more than " + std::to_string(kMaxNesting) + " levels deep");
  return false;
}

bool Parser::syntaxError() {
  const Token& t = tok();
  if (failed_) return false;
  if (t.kind == TokKind::End) {
    error("D_SYNTAX", t.loc, "syntax error near end of input");
  } else {
    const std::string& written = t.macroText.empty() ? t.text : t.macroText;
    error("D_SYNTAX", t.loc, "syntax error near \"" + written + "\"");
  }
  return false;
}

void Parser::error(const std::string& tag, SourceLoc loc, std::string message) {
  if (failed_) return;
  failed_ = true;
  end_.kind = TokKind::End;
  end_.loc = loc;
  result_.errorFile = lexer_.fileTag();
  result_.diags.error(tag, loc, std::move(message));
}

// ---- type names ----------------------------------------------------------------

bool Parser::isTypeName(std::string_view name, bool inClause) const {
  static constexpr std::array kBuiltin = {
      "int8_t",   "int16_t",  "int32_t",   "int64_t", "uint8_t", "uint16_t",  "uint32_t",
      "uint64_t", "intptr_t", "uintptr_t", "size_t",  "ssize_t", "ptrdiff_t",
  };
  // The D and C scopes (D`dqstr_t) name D's and the program's own types.
  std::string_view bare = name;
  if (name.starts_with("D`") || name.starts_with("C`")) bare = name.substr(2);
  for (const char* b : kBuiltin) {
    if (bare == b) return true;
  }
  if (typedefs_.count(bare) != 0) return true;
  return options_.isTypeName && options_.isTypeName(name, inClause);
}

// An identifier names a type unless the program uses it as a variable; like
// DTrace, a following ++, --, [ or = also makes it a variable.
bool Parser::isTypeIdent(const Token& t) const {
  return t.kind == TokKind::Ident && !t.looksAssigned && variables_.count(t.text) == 0 &&
         isTypeName(t.text);
}

bool Parser::startsTypeName(const Token& t) const {
  static constexpr std::array kTypeKeywords = {
      "void",     "char",   "short", "int",      "long",     "float",  "double", "signed",
      "unsigned", "string", "const", "volatile", "restrict", "struct", "union",  "enum",
  };
  if (t.kind == TokKind::Keyword) {
    for (const char* k : kTypeKeywords) {
      if (t.text == k) return true;
    }
    return false;
  }
  return isTypeIdent(t);
}

// ---- program structure ------------------------------------------------------------

void Parser::flushPragmas() {
  for (PragmaLine& p : pendingPragmas_) {
    // DTrace's lexer reads the rest of the program under the new flag.
    if (p.words == std::vector<std::string>{"option", "pspec"}) ambiguousAsProbes_ = true;
    result_.pragmas.push_back(p);
    result_.program.items.emplace_back(ast::Pragma{std::move(p.words), p.loc});
  }
  pendingPragmas_.clear();
}

// Chooses between a declaration and a probe clause the way DTrace's outer
// scope does: declaration keywords and type names start declarations,
// everything else is a probe description.
void Parser::parseTopLevelItem() {
  const Token& t = tok();
  if (t.kind == TokKind::Keyword) {
    if (t.text == "inline") {
      parseInline();
    } else if (t.text == "translator") {
      parseTranslator();
    } else if (t.text == "provider") {
      parseProvider();
    } else if (t.text == "counter" || t.text == "import") {
      syntaxError();
    } else {
      parseDeclaration();
    }
    return;
  }
  if (t.kind == TokKind::ProbeSpec && t.text.find(':') == std::string::npos) {
    // "foo_t*x;" is read as one probe-description word: if the part before
    // the '*' names a type, it is a declaration after all.
    size_t star = t.text.find('*');
    std::string_view head(t.text);
    if (star != std::string::npos && star > 0) head = head.substr(0, star);
    // Only identifier-shaped words are looked up ("tick-1s" never is).
    bool identShaped = head.find_first_not_of(
                           "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_`") ==
                       std::string_view::npos;
    Token word;
    word.kind = isDKeyword(head) ? TokKind::Keyword : TokKind::Ident;
    word.text = std::string(head);
    // With -n a lone word is a probe description even if it names a type
    // (dtrace -ln 'int*'): a declaration needs a declarator after it.
    const char next = ahead_.size() == 1 ? lexer_.nextVisibleChar() : ';';
    const bool lone =  // strchr finds the terminator too: the end of input
        options_.allowBareProbeSpec && std::strchr("{/,", next) != nullptr;
    if (identShaped && !lone && !ambiguousAsProbes_ &&
        (word.kind == TokKind::Keyword ? startsTypeName(word) : isTypeName(word.text, false))) {
      parseDeclaration();
      return;
    }
  }
  if (t.kind == TokKind::ProbeSpec || t.kind == TokKind::Int) {
    parseClause();
    return;
  }
  syntaxError();
}

bool Parser::parseClause() {
  ast::ProbeClause clause;
  clause.loc = tok().loc;
  for (;;) {
    const Token& t = tok();
    if (t.kind != TokKind::ProbeSpec && t.kind != TokKind::Int) return syntaxError();
    if (t.kind == TokKind::Int) {
      if (options_.probeSpecContext != ProbeSpecContext::Name) {
        static const char* const kWhat[] = {"providers", "modules", "functions"};
        error("D_PDESC_INVAL", t.loc,
              "probe identifier " + t.text + " not permitted when specifying " +
                  kWhat[static_cast<int>(options_.probeSpecContext)]);
        return false;
      }
      clause.probes.push_back(splitProbeSpec(t.text, t.loc));  // a probe ID
    } else {
      ast::ProbeSpec spec;
      std::string bad = expandProbeSpec(t.text, t.loc, options_.macros, spec,
                                        &result_.referencedArgs, options_.probeSpecContext);
      if (!bad.empty()) {
        error("D_PDESC_INVAL", t.loc, "invalid probe description \"" + t.text + "\": " + bad);
        return false;
      }
      clause.probes.push_back(std::move(spec));
    }
    advance();
    if (!accept(",")) break;
  }
  if (accept("/")) {
    setMode(LexMode::Expr);
    clause.predicate = parseExpression();
    if (!clause.predicate) return false;
    if (tok().kind != TokKind::PredEnd) return syntaxError();
    advance();
    if (!atPunct("{")) {
      error("D_SYNTAX", clause.predicate->loc,
            "expected actions { } following probe description and predicate");
      return false;
    }
  } else if (!atPunct("{")) {
    if (failed()) return false;
    if (!options_.allowBareProbeSpec) {
      error("D_SYNTAX", clause.probes.back().loc,
            "expected predicate and/or actions following probe description");
      return false;
    }
    result_.program.items.emplace_back(std::move(clause));
    return true;
  }
  advance();  // '{'
  setMode(LexMode::Expr);
  if (!parseStatementList(clause.body) || !expect("}")) return false;
  result_.program.items.emplace_back(std::move(clause));
  return true;
}

// ---- statements ---------------------------------------------------------------------

// Statements up to (not including) the closing '}'. The last expression
// statement may omit its ';'.
bool Parser::parseStatementList(std::vector<ast::StmtPtr>& out) {
  Nesting nesting(*this);
  if (!nesting.deeper()) return false;
  while (!failed()) {
    const Token& t = tok();
    if (isPunct(t, "}")) return true;
    if (t.kind == TokKind::End) return syntaxError();
    if (isPunct(t, ";")) {
      out.push_back(std::make_unique<ast::Stmt>(ast::StmtKind::Empty, t.loc));
      advance();
      continue;
    }
    if (isKeyword(t, "if")) {
      ast::StmtPtr s = parseIf();
      if (!s) return false;
      out.push_back(std::move(s));
      continue;
    }
    if (isPunct(t, "{")) {
      auto block = std::make_unique<ast::Stmt>(ast::StmtKind::Block, t.loc);
      advance();
      if (!parseStatementList(block->body) || !expect("}")) return false;
      out.push_back(std::move(block));
      continue;
    }
    auto s = std::make_unique<ast::Stmt>(ast::StmtKind::Expr, t.loc);
    s->expr = parseExpression();
    if (!s->expr) return false;
    out.push_back(std::move(s));
    if (accept(";")) continue;
    if (atPunct("}")) return true;
    return syntaxError();
  }
  return false;
}

// The branch of an if: a braced statement list, or one statement that must
// end with its ';'.
bool Parser::parseStatementOrBlock(std::vector<ast::StmtPtr>& out) {
  Nesting nesting(*this);
  if (!nesting.deeper()) return false;
  const Token& t = tok();
  if (isPunct(t, "{")) {
    advance();
    return parseStatementList(out) && expect("}");
  }
  if (isPunct(t, ";")) {
    out.push_back(std::make_unique<ast::Stmt>(ast::StmtKind::Empty, t.loc));
    advance();
    return true;
  }
  if (isKeyword(t, "if")) {
    ast::StmtPtr s = parseIf();
    if (!s) return false;
    out.push_back(std::move(s));
    return true;
  }
  auto s = std::make_unique<ast::Stmt>(ast::StmtKind::Expr, t.loc);
  s->expr = parseExpression();
  if (!s->expr || !expect(";")) return false;
  out.push_back(std::move(s));
  return true;
}

ast::StmtPtr Parser::parseIf() {
  auto s = std::make_unique<ast::Stmt>(ast::StmtKind::If, tok().loc);
  advance();  // if
  if (!expect("(")) return nullptr;
  s->expr = parseExpression();
  if (!s->expr || !expect(")")) return nullptr;
  if (!parseStatementOrBlock(s->body)) return nullptr;
  if (atKeyword("else")) {
    advance();
    s->hasElse = true;
    if (!parseStatementOrBlock(s->elseBody)) return nullptr;
  }
  return s;
}

}  // namespace dtrace::parse
