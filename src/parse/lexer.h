// The D lexer. Like DTrace's, it has two modes: at the outer scope of a
// program it reads probe descriptions (where `-`, `*`, `:` and friends are
// part of a word) and declaration keywords; inside clauses, predicates and
// declarations it reads ordinary C-like tokens. The parser chooses the mode
// for every token it asks for and may rewind to re-read in the other mode.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "util/diag.h"

namespace dtrace::parse {

// Macro variables ($1, $$2, $target) as the program being compiled sees
// them. When a lexer has them it substitutes each reference as DTrace's
// lexer does; without them it returns Macro tokens.
struct MacroSource {
  // The value of $name or $N ("0" is $0), or null when it is undefined.
  std::function<const std::string*(std::string_view name)> find;
  bool defaultArgs = false;  // -x defaultargs: an undefined $N is 0, $$N ""
};

enum class LexMode {
  Program,  // outer scope: probe descriptions and declaration keywords
  Expr,     // clause bodies, predicates, declarations
};

enum class TokKind {
  End,        // end of input
  Error,      // lexical error: errTag/errMessage say what
  Ident,      // identifier (possibly module-scoped with backquotes)
  Keyword,    // D keyword, spelled in `text`
  ProbeSpec,  // probe description word (Program mode only)
  Int,        // integer constant (value, suffix flags)
  Char,       // character constant (value)
  String,     // string literal (decoded bytes in `str`)
  Agg,        // "@name" or "@"
  Macro,      // $1, $$1, $target: name without dollars in `str`
  Punct,      // operator or punctuator, spelled in `text`
  PredEnd,    // the "/" that closes a predicate
};

// Everything needed to resume lexing at a position, so the parser can re-read
// a token in another mode.
struct LexState {
  size_t pos = 0;
  uint32_t line = 1;
  size_t lineStart = 0;
  int parens = 0, brackets = 0, braces = 0;
};

struct Token {
  TokKind kind = TokKind::End;
  std::string text;  // the token as written; what "syntax error near" quotes
  std::string str;   // String: decoded bytes; Macro: the name after the dollars
  // A token a macro reference stands for: the reference as written
  // ("$pid"), which "syntax error near" quotes in place of `text`.
  std::string macroText;
  uint64_t value = 0;
  bool suffixUnsigned = false;
  int suffixLongs = 0;
  bool decimal = true;
  bool isStringMacro = false;
  bool negated = false;  // Int from a macro argument written "-N"
  // Identifier followed by ++, --, [ or a lone =: DTrace then reads it as a
  // variable even if a type of that name exists.
  bool looksAssigned = false;
  SourceLoc loc;
  LexState start;  // lexer state at the token's first character
  std::string errTag, errMessage;
};

// A `#pragma D ...` control line, split into words after "D".
struct PragmaLine {
  std::vector<std::string> words;
  std::string kinds;  // per word: 'i' identifier, 's' quoted string, 'n' integer
  SourceLoc loc;
};

class Lexer {
 public:
  explicit Lexer(std::string_view source, const MacroSource* macros = nullptr)
      : src_(source), macros_(macros) {}

  Token next(LexMode mode);

  const LexState& state() const { return st_; }
  void restore(const LexState& s) { st_ = s; }
  // The next character that is not white space, '\0' at the end.
  char nextVisibleChar() const {
    size_t p = st_.pos;
    while (p < src_.size() &&
           (src_[p] == ' ' || src_[p] == '\t' || src_[p] == '\n' || src_[p] == '\r'))
      ++p;
    return p < src_.size() ? src_[p] : '\0';
  }

  // Pragmas read since the last call, each reported once even if the parser
  // rewinds over it.
  std::vector<PragmaLine> takePragmas();

  // Every well-formed D pragma from here to the end, found without
  // tokenizing (comments and strings are skipped).
  std::vector<PragmaLine> scanPragmas();

  // The $N arguments substituted so far (DTrace refuses an unused last one).
  const std::set<size_t>& referencedArgs() const { return referencedArgs_; }
  // The file named by the last `#line N "file"` marker ("" for the source
  // itself), and the one in effect at each line where it changed.
  const std::string& fileTag() const { return fileTag_; }

 private:
  char at(size_t i) const { return i < src_.size() ? src_[i] : '\0'; }
  char cur() const { return at(st_.pos); }
  SourceLoc locAt(size_t pos) const;
  void newline();
  bool atLineStart() const;

  // Skips blanks, newlines, comments and control lines. Returns false and
  // fills `err` on a lexical error.
  bool skipSpace(LexMode mode, Token& err);
  bool controlLine(Token& err);
  struct Word;
  bool applyControlLine(const std::vector<Word>& words, size_t offset, SourceLoc loc, Token& err);

  Token lexProgramWord(const Token& base);
  Token lexNumber(Token t, bool allowFloat);
  Token lexIdent(Token t);
  Token lexString(Token t);
  Token lexChar(Token t);
  Token lexMacro(Token t);
  Token substituteMacro(Token t, const std::string& name);
  Token lexPunct(Token t);

  Token error(Token t, const char* tag, std::string message);

  std::string_view src_;
  LexState st_;
  std::vector<PragmaLine> pragmas_;
  size_t pragmaHighWater_ = 0;  // control lines before this offset were reported
  uint32_t lineReset_ = 0;      // set by `# N "file"`: the number of the next line
  const MacroSource* macros_ = nullptr;
  std::set<size_t> referencedArgs_;
  std::string fileTag_;
};

// The well-formed `#pragma D option` lines of a program, found without
// parsing it (comments and strings are skipped), so that options such as
// strsize can be set before anything is compiled, as DTrace sets them while
// lexing.
std::vector<PragmaLine> scanOptionPragmas(std::string_view source);

// Every `#pragma D` line of a source, read without parsing the rest (as
// DTrace reads a library's control directives before compiling it).
std::vector<PragmaLine> scanPragmas(std::string_view source);

// Decodes C escapes as DTrace does: octal, \x hex, the letter escapes and
// quoted quotes and backslashes; an unknown escape keeps its backslash.
std::string decodeEscapes(std::string_view raw);

bool isDKeyword(std::string_view word);

}  // namespace dtrace::parse
