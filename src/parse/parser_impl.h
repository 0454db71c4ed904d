// The recursive-descent parser behind parseProgram(). Private to src/parse:
// the implementation is split by concern over parser.cpp (tokens, program
// structure, statements), parse_decl.cpp (declarations, types) and
// parse_expr.cpp (expressions).
#pragma once

#include <deque>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "parse/ast.h"
#include "parse/lexer.h"
#include "parse/parser.h"

namespace dtrace::parse {

class Parser {
 public:
  Parser(std::string_view source, const ParseOptions& options);
  ParseResult run();

 private:
  // Where declaration specifiers appear decides which storage classes are
  // allowed: D's `self` and `this` only at file scope, none in type names.
  enum class SpecContext { Declaration, Parameter, TypeName };
  // Whether a declarator must, may or must not name something.
  enum class DeclaratorKind { Named, Either, Abstract };

  // ---- tokens (parser.cpp) ----
  const Token& tok();
  const Token& peek();  // the token after tok(), in the same mode
  void advance();
  void setMode(LexMode mode);
  static bool isPunct(const Token& t, std::string_view p) {
    return t.kind == TokKind::Punct && t.text == p;
  }
  static bool isKeyword(const Token& t, std::string_view k) {
    return t.kind == TokKind::Keyword && t.text == k;
  }
  bool atPunct(std::string_view p) { return isPunct(tok(), p); }
  bool atKeyword(std::string_view k) { return isKeyword(tok(), k); }
  bool accept(std::string_view p);
  bool expect(std::string_view p);
  bool syntaxError();  // "syntax error near ..." at the current token; returns false
  void error(const std::string& tag, SourceLoc loc, std::string message);
  bool failed() const { return failed_; }

  // ---- type names ----
  bool isTypeName(std::string_view name, bool inClause = true) const;
  bool isTypeIdent(const Token& t) const;
  bool startsTypeName(const Token& t) const;

  // ---- program structure and statements (parser.cpp) ----
  void parseTopLevelItem();
  void flushPragmas();
  bool parseClause();
  bool parseStatementList(std::vector<ast::StmtPtr>& out);
  bool parseStatementOrBlock(std::vector<ast::StmtPtr>& out);
  ast::StmtPtr parseIf();

  // ---- declarations (parse_decl.cpp) ----
  bool parseDeclaration();
  static bool isFunction(const ast::Declarator& d);
  bool skipFunctionBody();
  bool parseInline();
  bool parseTranslator();
  bool parseProvider();
  bool parseDeclSpecs(ast::DeclSpec& spec, SpecContext ctx);
  bool parseStructSpec(ast::DeclSpec& spec);
  bool parseEnumSpec(ast::DeclSpec& spec);
  bool parseDeclarator(ast::Declarator& d, DeclaratorKind kind);
  bool parseArraySuffix(ast::DeclaratorStep& step);
  bool parseFunctionSuffix(ast::DeclaratorStep& step);
  std::shared_ptr<ast::TypeName> parseTypeName();
  void declareName(const ast::DeclSpec& spec, const std::string& name);

  // ---- nesting ----
  // Every recursive descent, and every operator stacked on an operand,
  // deepens the tree the checker and code generator walk recursively: past
  // kMaxNesting levels the script is refused rather than the stack run out.
  static constexpr int kMaxNesting = 1000;
  class Nesting {
   public:
    explicit Nesting(Parser& p) : p_(p) {}
    ~Nesting() { p_.nesting_ -= levels_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    bool deeper();  // false (after an error) beyond kMaxNesting
   private:
    Parser& p_;
    int levels_ = 0;
  };

  // ---- expressions (parse_expr.cpp) ----
  ast::ExprPtr parseExpression();
  ast::ExprPtr parseAssignment();
  ast::ExprPtr parseConditional();
  ast::ExprPtr parseBinary(int minPrecedence);
  ast::ExprPtr parseCast();
  ast::ExprPtr parseUnary();
  ast::ExprPtr parsePostfix();
  ast::ExprPtr parsePrimary();
  bool parseArguments(ast::Expr& into, std::string_view close);
  bool parseMemberName(std::string& name);

  Lexer lexer_;
  const ParseOptions& options_;
  LexMode mode_ = LexMode::Program;
  std::deque<Token> ahead_;  // lexed but not consumed, all in mode_
  Token end_;                // returned by tok() once an error has been reported
  bool failed_ = false;
  ParseResult result_;
  std::vector<PragmaLine> pendingPragmas_;
  bool ambiguousAsProbes_;  // ParseOptions::ambiguousAsProbes, or the pragma since
  std::set<std::string, std::less<>> typedefs_;         // declared with typedef in this program
  std::set<std::string, std::less<>> variables_;        // declared or assigned: never types
  std::unordered_set<const ast::Expr*> parenthesized_;  // may be assigned to: `(x) = 1`
  int nesting_ = 0;
};

}  // namespace dtrace::parse
