#include "parse/lexer.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace dtrace::parse {

namespace {

constexpr std::array kExprKeywords = {
    "auto",     "break",    "case",     "char",   "const",  "continue",   "counter", "default",
    "do",       "double",   "else",     "enum",   "extern", "float",      "for",     "goto",
    "if",       "import",   "inline",   "int",    "long",   "offsetof",   "probe",   "provider",
    "register", "restrict", "return",   "self",   "short",  "signed",     "sizeof",  "static",
    "string",   "stringof", "struct",   "switch", "this",   "translator", "typedef", "union",
    "unsigned", "void",     "volatile", "while",  "xlate",
};

// The keywords DTrace recognises at the outer scope, where anything else is a
// probe description.
constexpr std::array kProgramKeywords = {
    "auto",     "char",       "const",   "counter", "double",   "enum",     "extern",
    "float",    "import",     "inline",  "int",     "long",     "provider", "register",
    "restrict", "self",       "short",   "signed",  "static",   "string",   "struct",
    "this",     "translator", "typedef", "union",   "unsigned", "void",     "volatile",
};

template <size_t N>
bool contains(const std::array<const char*, N>& list, std::string_view word) {
  for (const char* k : list) {
    if (word == k) return true;
  }
  return false;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isHexDigit(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isIdentStart(char c) { return isAlpha(c) || c == '_' || c == '`'; }
bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }
bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r'; }
bool isSpace(char c) { return isBlank(c) || c == '\n'; }

// Characters of a probe description word at the outer scope.
bool isProbeSpecStart(char c) { return isAlpha(c) || std::strchr("_-$:.?*\\[]!", c) != nullptr; }
bool isProbeSpecChar(char c) { return isProbeSpecStart(c) || isDigit(c) || c == '`' || c == '+'; }

int hexValue(char c) {
  if (isDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

std::string quoted(std::string_view s) {
  std::string out(1, '"');
  out.append(s);
  out += '"';
  return out;
}

// True when the whole word is an integer constant as DTrace's lexer spells one.
bool isIntWord(std::string_view w) {
  size_t i = 0;
  if (w.size() > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X') && isHexDigit(w[2])) {
    i = 2;
    while (i < w.size() && isHexDigit(w[i])) ++i;
  } else {
    while (i < w.size() && isDigit(w[i])) ++i;
    if (i == 0) return false;
  }
  if (i < w.size() && (w[i] == 'u' || w[i] == 'U')) ++i;
  for (int n = 0; n < 2 && i < w.size() && (w[i] == 'l' || w[i] == 'L'); ++n) ++i;
  return i == w.size();
}

}  // namespace

bool isDKeyword(std::string_view word) { return contains(kExprKeywords, word); }

std::string decodeEscapes(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c != '\\' || i + 1 >= raw.size()) {
      out += c;
      continue;
    }
    c = raw[++i];
    if (c >= '0' && c <= '7') {
      int v = c - '0';
      for (int n = 0; n < 2 && i + 1 < raw.size() && raw[i + 1] >= '0' && raw[i + 1] <= '7'; ++n) {
        v = v * 8 + (raw[++i] - '0');
      }
      out += static_cast<char>(v);
      continue;
    }
    switch (c) {
      case 'a':
        out += '\a';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'v':
        out += '\v';
        break;
      case '"':
      case '\\':
        out += c;
        break;
      case 'x': {
        // Any number of digits; the character is the low byte (unsigned:
        // a long run of digits wraps rather than overflows).
        unsigned v = 0;
        while (i + 1 < raw.size() && isHexDigit(raw[i + 1])) {
          v = v * 16 + static_cast<unsigned>(hexValue(raw[++i]));
        }
        out += static_cast<char>(v);
        break;
      }
      default:  // not an escape in D (\' and \? among them): both characters stay
        out += '\\';
        out += c;
    }
  }
  return out;
}

SourceLoc Lexer::locAt(size_t pos) const {
  return SourceLoc{st_.line, static_cast<uint32_t>(pos - st_.lineStart + 1)};
}

void Lexer::newline() {
  ++st_.pos;
  ++st_.line;
  st_.lineStart = st_.pos;
}

bool Lexer::atLineStart() const {
  for (size_t i = st_.lineStart; i < st_.pos; ++i) {
    if (!isBlank(src_[i]) || src_[i] == '\r') return false;
  }
  return true;
}

std::vector<PragmaLine> Lexer::takePragmas() {
  std::vector<PragmaLine> out;
  out.swap(pragmas_);
  return out;
}

std::vector<PragmaLine> Lexer::scanPragmas() {
  auto skipQuoted = [this](char quote) {
    ++st_.pos;
    while (st_.pos < src_.size() && cur() != quote && cur() != '\n') {
      st_.pos += (cur() == '\\' && at(st_.pos + 1) != '\n') ? 2 : 1;
    }
    if (st_.pos < src_.size() && cur() == quote) ++st_.pos;
  };
  while (st_.pos < src_.size()) {
    char c = cur();
    if (c == '\n') {
      newline();
    } else if (c == '/' && at(st_.pos + 1) == '*') {
      st_.pos += 2;
      while (st_.pos < src_.size() && !(cur() == '*' && at(st_.pos + 1) == '/')) {
        if (cur() == '\n') {
          newline();
        } else {
          ++st_.pos;
        }
      }
      st_.pos = std::min(st_.pos + 2, src_.size());
    } else if (c == '/' && at(st_.pos + 1) == '/') {
      while (st_.pos < src_.size() && cur() != '\n') ++st_.pos;
    } else if (c == '"' || c == '\'') {
      skipQuoted(c);
    } else if (c == '#' && atLineStart()) {
      Token err;
      if (!controlLine(err)) {
        while (st_.pos < src_.size() && cur() != '\n') ++st_.pos;
      }
    } else {
      ++st_.pos;
    }
  }
  return takePragmas();
}

std::vector<PragmaLine> scanPragmas(std::string_view source) {
  Lexer lexer(source);
  return lexer.scanPragmas();
}

std::vector<PragmaLine> scanOptionPragmas(std::string_view source) {
  std::vector<PragmaLine> options;
  for (PragmaLine& p : scanPragmas(source)) {
    if (!p.words.empty() && p.words[0] == "option") options.push_back(std::move(p));
  }
  return options;
}

Token Lexer::error(Token t, const char* tag, std::string message) {
  t.kind = TokKind::Error;
  t.errTag = tag;
  t.errMessage = std::move(message);
  return t;
}

bool Lexer::skipSpace(LexMode mode, Token& err) {
  while (st_.pos < src_.size()) {
    char c = cur();
    if (c == '\n') {
      newline();
    } else if (isBlank(c)) {
      ++st_.pos;
    } else if (c == '/' && at(st_.pos + 1) == '*') {
      st_.pos += 2;
      for (;;) {
        if (st_.pos >= src_.size()) {
          err = error(err, "D_SYNTAX", "end-of-file encountered before matching */");
          err.loc = locAt(st_.pos);
          return false;
        }
        if (cur() == '/' && at(st_.pos + 1) == '*') {
          err = error(err, "D_SYNTAX", "/* encountered inside a comment");
          err.loc = locAt(st_.pos);
          return false;
        }
        if (cur() == '*' && at(st_.pos + 1) == '/') {
          st_.pos += 2;
          break;
        }
        if (cur() == '\n') {
          newline();
        } else {
          ++st_.pos;
        }
      }
    } else if (c == '/' && at(st_.pos + 1) == '/') {
      while (st_.pos < src_.size() && cur() != '\n') ++st_.pos;
    } else if (c == '#' && atLineStart()) {
      if (!controlLine(err)) return false;
    } else if (mode == LexMode::Expr && c == '\\' && at(st_.pos + 1) == '\n') {
      ++st_.pos;
      newline();
    } else {
      return true;
    }
  }
  return true;
}

struct Lexer::Word {
  enum Kind { Ident, String, Int } kind;
  std::string text;
};

// A line starting with '#': an interpreter line, a cpp line marker, or a
// pragma. Consumes it through its newline.
bool Lexer::controlLine(Token& err) {
  size_t offset = st_.pos;
  SourceLoc loc = locAt(st_.pos);
  ++st_.pos;
  if (cur() == '!') {
    while (st_.pos < src_.size() && cur() != '\n') ++st_.pos;
    return true;
  }
  std::vector<Word> words;
  while (st_.pos < src_.size() && cur() != '\n') {
    char c = cur();
    if (isBlank(c)) {
      ++st_.pos;
      continue;
    }
    if (c == '"') {
      size_t p = st_.pos + 1;
      while (p < src_.size() && src_[p] != '"' && src_[p] != '\n') {
        if (src_[p] == '\\' && p + 1 < src_.size() && src_[p + 1] != '\n') ++p;
        ++p;
      }
      if (p >= src_.size() || src_[p] != '"') {
        err = error(err, "D_STR_NL", "newline encountered in string literal");
        err.loc = loc;
        return false;
      }
      words.push_back({Word::String, decodeEscapes(src_.substr(st_.pos + 1, p - st_.pos - 1))});
      st_.pos = p + 1;
      continue;
    }
    size_t p = st_.pos;
    while (p < src_.size() && !isSpace(src_[p]) && src_[p] != '"') ++p;
    std::string w(src_.substr(st_.pos, p - st_.pos));
    words.push_back({isIntWord(w) ? Word::Int : Word::Ident, w});
    st_.pos = p;
  }
  // As DTrace's lexer: a control line ends at a newline, never at the end
  // of the file.
  if (st_.pos >= src_.size()) {
    err = error(err, "D_SYNTAX", "end-of-file encountered before end of control line");
    err.loc = locAt(st_.pos);
    return false;
  }
  lineReset_ = 0;
  if (!applyControlLine(words, offset, loc, err)) return false;
  if (st_.pos < src_.size()) newline();
  if (lineReset_ != 0) st_.line = lineReset_;
  return true;
}

// Interprets a control line the way DTrace's pragma table does: line markers,
// `#pragma D <name> ...`, `#error`, `#ident`; unknown plain `#pragma`s are
// ignored and anything else is an invalid directive.
bool Lexer::applyControlLine(const std::vector<Word>& words, size_t offset, SourceLoc loc,
                             Token& err) {
  enum { Directive, Pragma, DPragma } level = Directive;
  auto fail = [&](const char* tag, std::string msg) {
    err = error(err, tag, std::move(msg));
    err.loc = loc;
    return false;
  };
  for (size_t i = 0; i < words.size(); ++i) {
    const Word& w = words[i];
    if (w.kind == Word::Int) {  // `# 12 "file" 1`, as cpp writes them
      if ((i + 1 < words.size() && words[i + 1].kind != Word::String) ||
          (i + 2 < words.size() && words[i + 2].kind != Word::Int)) {
        return fail("D_PRAGMA_MALFORM", "malformed #line <line> [ [\"file\"] state ]");
      }
      lineReset_ = static_cast<uint32_t>(std::strtoull(w.text.c_str(), nullptr, 0));
      if (i + 1 < words.size()) fileTag_ = words[i + 1].text;
      return true;
    }
    if (w.kind != Word::Ident) return fail("D_PRAGCTL_INVAL", "invalid control directive");
    if (level == Directive && w.text == "pragma") {
      level = Pragma;
      continue;
    }
    if (level == Pragma && w.text == "D") {
      level = DPragma;
      continue;
    }
    std::vector<Word> args(words.begin() + i + 1, words.end());
    if (w.text == "ident") return true;
    if (w.text == "line") {
      if (args.empty() || args[0].kind != Word::Int ||
          (args.size() > 1 && args[1].kind != Word::String) ||
          (args.size() > 2 && args[2].kind != Word::Int)) {
        return fail("D_PRAGMA_MALFORM", "malformed #line <line> [ [\"file\"] state ]");
      }
      lineReset_ = static_cast<uint32_t>(std::strtoull(args[0].text.c_str(), nullptr, 0));
      if (args.size() > 1) fileTag_ = args[1].text;
      return true;
    }
    if (w.text == "error") {
      std::string msg = "#error: ";
      for (const Word& a : args) {
        if (a.kind != Word::Int) msg += a.text + " ";
      }
      return fail("D_PRAGERR", msg);
    }
    bool dOnly = w.text == "attributes" || w.text == "binding" || w.text == "depends_on" ||
                 w.text == "option";
    if (dOnly && level == DPragma) {
      if (w.text == "option") {
        if (args.empty() || args[0].kind != Word::Ident) {
          return fail("D_PRAGMA_MALFORM", "malformed #pragma option <option>=<val>");
        }
        if (args.size() > 1) {
          return fail("D_PRAGMA_MALFORM", "superfluous arguments specified for #pragma option");
        }
      }
      if (offset >= pragmaHighWater_) {
        PragmaLine p;
        p.loc = loc;
        p.words.push_back(w.text);
        p.kinds += 'i';
        for (const Word& a : args) {
          p.words.push_back(a.text);
          p.kinds += a.kind == Word::String ? 's' : a.kind == Word::Int ? 'n' : 'i';
        }
        pragmas_.push_back(std::move(p));
        pragmaHighWater_ = offset + 1;
      }
      return true;
    }
    if (level == Directive) {
      return fail("D_PRAGCTL_INVAL", "invalid control directive: #" + w.text);
    }
    if (level == Pragma) return true;  // other compilers' pragmas are ignored
    return fail("D_PRAGMA_INVAL", "invalid D pragma: " + w.text);
  }
  return true;
}

Token Lexer::next(LexMode mode) {
  Token t;
  if (!skipSpace(mode, t)) return t;
  t.start = st_;
  t.loc = locAt(st_.pos);
  if (st_.pos >= src_.size()) {
    t.kind = TokKind::End;
    return t;
  }
  char c = cur();
  if (mode == LexMode::Program) {
    if (isProbeSpecStart(c)) return lexProgramWord(t);
    if (isDigit(c)) return lexNumber(t, false);
    if (c == '{' || c == '/' || c == ',') {
      if (c == '{') ++st_.braces;
      ++st_.pos;
      t.kind = TokKind::Punct;
      t.text = std::string(1, c);
      return t;
    }
    ++st_.pos;
    return error(t, "D_SYNTAX", "syntax error near " + quoted(std::string(1, c)));
  }
  if (isIdentStart(c)) return lexIdent(t);
  if (c == '$') return lexMacro(t);
  if (c == '@') {
    size_t p = st_.pos + 1;
    if (isAlpha(at(p)) || at(p) == '_') {
      while (p < src_.size() && (isAlpha(src_[p]) || isDigit(src_[p]) || src_[p] == '_')) ++p;
    }
    t.kind = TokKind::Agg;
    t.text = std::string(src_.substr(st_.pos, p - st_.pos));
    st_.pos = p;
    return t;
  }
  if (isDigit(c) || (c == '.' && isDigit(at(st_.pos + 1)))) return lexNumber(t, true);
  if (c == '"') return lexString(t);
  if (c == '\'') return lexChar(t);
  return lexPunct(t);
}

Token Lexer::lexProgramWord(const Token& base) {
  Token t = base;
  size_t p = st_.pos;
  while (p < src_.size() && isProbeSpecChar(src_[p])) ++p;
  t.text = std::string(src_.substr(st_.pos, p - st_.pos));
  st_.pos = p;
  t.kind = contains(kProgramKeywords, t.text) ? TokKind::Keyword : TokKind::ProbeSpec;
  return t;
}

Token Lexer::lexNumber(Token t, bool allowFloat) {
  const size_t s = st_.pos;
  const bool hex = at(s) == '0' && (at(s + 1) == 'x' || at(s + 1) == 'X') && isHexDigit(at(s + 2));
  size_t p = hex ? s + 2 : s;
  while (p < src_.size() && (hex ? isHexDigit(src_[p]) : isDigit(src_[p]))) ++p;
  const size_t digitsEnd = p;
  if (p > s) {
    if (at(p) == 'u' || at(p) == 'U') {
      t.suffixUnsigned = true;
      ++p;
    }
    for (int n = 0; n < 2 && (at(p) == 'l' || at(p) == 'L'); ++n, ++p) ++t.suffixLongs;
  }
  const size_t intLen = p - s;

  if (allowFloat && !hex) {
    // DTrace's lexer matches the longest of integer and floating constant,
    // then refuses the latter.
    size_t q = s;
    while (isDigit(at(q))) ++q;
    if (at(q) == '.') ++q;
    while (isDigit(at(q))) ++q;
    if (at(q) == 'e' || at(q) == 'E') {
      size_t r = q + 1;
      if (at(r) == '+' || at(r) == '-') ++r;
      if (isDigit(at(r))) {
        while (isDigit(at(r))) ++r;
        q = r;
      }
    }
    if (at(q) == 'f' || at(q) == 'F' || at(q) == 'l' || at(q) == 'L') ++q;
    if (q - s > intLen) {
      st_.pos = q;
      return error(t, "D_SYNTAX", "floating-point constants are not permitted");
    }
  }

  t.text = std::string(src_.substr(s, intLen));
  st_.pos = p;
  t.kind = TokKind::Int;
  t.decimal = t.text[0] != '0';
  const unsigned base = hex ? 16 : (t.text[0] == '0' ? 8 : 10);
  uint64_t v = 0;
  bool overflow = false;
  size_t i = hex ? s + 2 : s;
  for (; i < digitsEnd; ++i) {
    unsigned d = static_cast<unsigned>(hexValue(src_[i]));
    if (d >= base) break;
    if (v > (UINT64_MAX - d) / base) overflow = true;
    v = v * base + d;
  }
  if (overflow) {
    return error(t, "D_INT_OFLOW", "constant " + t.text + " results in integer overflow");
  }
  if (i < digitsEnd) {
    return error(t, "D_INT_DIGIT",
                 "constant " + t.text + " contains invalid digit " + std::string(1, src_[i]));
  }
  t.value = v;
  return t;
}

Token Lexer::lexIdent(Token t) {
  size_t p = st_.pos;
  while (p < src_.size() && isIdentChar(src_[p])) ++p;
  t.text = std::string(src_.substr(st_.pos, p - st_.pos));
  st_.pos = p;
  if (isDKeyword(t.text)) {
    t.kind = TokKind::Keyword;
    return t;
  }
  t.kind = TokKind::Ident;
  while (p < src_.size() && isSpace(src_[p])) ++p;
  char c0 = at(p), c1 = at(p + 1);
  t.looksAssigned = ((c0 == '+' || c0 == '-') && c1 == c0) || c0 == '[' || (c0 == '=' && c1 != '=');
  return t;
}

Token Lexer::lexMacro(Token t) {
  size_t p = st_.pos + 1;
  t.isStringMacro = at(p) == '$';
  if (t.isStringMacro) ++p;
  size_t nameStart = p;
  if (isDigit(at(p))) {
    while (isDigit(at(p))) ++p;
  } else if (isIdentStart(at(p))) {
    while (isIdentChar(at(p))) ++p;
  } else {
    ++st_.pos;
    return error(t, "D_SYNTAX", "syntax error near \"$\"");
  }
  t.kind = TokKind::Macro;
  t.text = std::string(src_.substr(st_.pos, p - st_.pos));
  t.str = std::string(src_.substr(nameStart, p - nameStart));
  st_.pos = p;
  if (macros_ == nullptr) return t;
  std::string name = t.str;
  return substituteMacro(std::move(t), name);
}

namespace {

// dt_string.c strbadidnum(): whether a macro argument is neither an integer
// (as strtoull reads one) nor made of identifier characters.
bool badIdentOrNumber(const std::string& v) {
  if (v.empty()) return true;
  errno = 0;
  char* end = nullptr;
  (void)std::strtoull(v.c_str(), &end, 0);
  if (errno == 0 && *end == '\0') return false;
  for (char c : v) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '`') return true;
  }
  return false;
}

// A string token's bytes: escapes decoded, cut at an embedded NUL.
std::string macroString(std::string_view raw) {
  std::string s = decodeEscapes(raw);
  if (size_t nul = s.find('\0'); nul != std::string::npos) s.resize(nul);
  return s;
}

}  // namespace

// Replaces a macro reference by the token its value spells, as dt_lex.l
// does: $$N and $$name are strings; $N is an integer, an identifier or
// (when it is neither) a string with optional quotes; $name is an integer.
Token Lexer::substituteMacro(Token t, const std::string& name) {
  const bool numbered = isDigit(name[0]);
  const std::string* value = macros_->find(name);
  t.macroText = t.text;
  std::string v;
  if (numbered) {
    if (value == nullptr && !macros_->defaultArgs) {
      return error(t, "D_MACRO_UNDEF", "macro argument " + t.text + " is not defined");
    }
    if (value != nullptr) {
      referencedArgs_.insert(std::strtoul(name.c_str(), nullptr, 10));
      v = *value;
    } else {
      v = t.isStringMacro ? "" : "0";
    }
  } else {
    if (value == nullptr) {
      return error(t, "D_MACRO_UNDEF", "macro variable " + t.text + " is not defined");
    }
    v = *value;
  }
  if (t.isStringMacro) {
    t.kind = TokKind::String;
    t.str = macroString(v);
    return t;
  }
  // Named macros are process and user ids; one that is not a number (such
  // as $cwd) can only be a string.
  if (badIdentOrNumber(v) || (!numbered && !isDigit(v[0]))) {
    std::string_view raw = v;
    if (numbered && raw.size() != 1 && raw.front() == '"' && raw.back() == '"') {
      raw = raw.substr(1, raw.size() - 2);
    }
    t.kind = TokKind::String;
    t.str = macroString(raw);
    return t;
  }
  if (isDigit(v[0]) || v[0] == '-' || v[0] == '+') {
    std::string digits = isDigit(v[0]) ? v : v.substr(1);
    t.negated = v[0] == '-';
    errno = 0;
    char* end = nullptr;
    t.value = std::strtoull(digits.c_str(), &end, 0);
    if (errno == ERANGE) {
      return error(
          t, "D_MACRO_OFLOW",
          "macro argument " + t.text + " constant " + digits + " results in integer overflow");
    }
    std::string_view suffix(end);
    size_t i = 0;
    if (i < suffix.size() && (suffix[i] == 'u' || suffix[i] == 'U')) {
      t.suffixUnsigned = true;
      ++i;
    }
    for (int n = 0; n < 2 && i < suffix.size() && (suffix[i] == 'l' || suffix[i] == 'L');
         ++n, ++i) {
      ++t.suffixLongs;
    }
    if (i < suffix.size()) {
      return error(t, "D_INT_DIGIT",
                   "constant " + digits + " contains invalid digit " + std::string(1, suffix[i]));
    }
    t.kind = TokKind::Int;
    t.text = digits;
    t.decimal = digits[0] != '0';
    return t;
  }
  // An identifier: the macro stands for the variable (or keyword) it names.
  t.text = v;
  if (isDKeyword(v)) {
    t.kind = TokKind::Keyword;
    return t;
  }
  t.kind = TokKind::Ident;
  size_t p = st_.pos;
  while (p < src_.size() && isSpace(src_[p])) ++p;
  char c0 = at(p), c1 = at(p + 1);
  t.looksAssigned = ((c0 == '+' || c0 == '-') && c1 == c0) || c0 == '[' || (c0 == '=' && c1 != '=');
  return t;
}

Token Lexer::lexString(Token t) {
  size_t p = st_.pos + 1;
  for (;;) {
    if (p >= src_.size()) {
      ++st_.pos;
      return error(t, "D_SYNTAX", "syntax error near \"\"\"");
    }
    char c = src_[p];
    if (c == '\n' || (c == '\\' && at(p + 1) == '\n')) {
      st_.pos = p;
      // Reported where DTrace's lexer is then: past the newline.
      t.loc = SourceLoc{st_.line + 1, 1};
      return error(t, "D_STR_NL", "newline encountered in string literal");
    }
    if (c == '"') break;
    p += (c == '\\' && p + 1 < src_.size()) ? 2 : 1;
  }
  t.kind = TokKind::String;
  t.text = std::string(src_.substr(st_.pos, p + 1 - st_.pos));
  t.str = decodeEscapes(src_.substr(st_.pos + 1, p - st_.pos - 1));
  // DTrace keeps strings as C strings: an embedded \0 ends them.
  if (size_t nul = t.str.find('\0'); nul != std::string::npos) t.str.resize(nul);
  st_.pos = p + 1;
  return t;
}

Token Lexer::lexChar(Token t) {
  size_t p = st_.pos + 1;
  for (;;) {
    if (p >= src_.size()) {
      ++st_.pos;
      return error(t, "D_SYNTAX", "syntax error near \"'\"");
    }
    char c = src_[p];
    if (c == '\n' || (c == '\\' && at(p + 1) == '\n')) {
      st_.pos = p;
      return error(t, "D_CHR_NL", "newline encountered in character constant");
    }
    if (c == '\'') break;
    p += (c == '\\' && p + 1 < src_.size()) ? 2 : 1;
  }
  t.text = std::string(src_.substr(st_.pos, p + 1 - st_.pos));
  std::string bytes = decodeEscapes(src_.substr(st_.pos + 1, p - st_.pos - 1));
  st_.pos = p + 1;
  if (t.text.size() == 2) return error(t, "D_CHR_NULL", "empty character constant");
  if (bytes.size() > sizeof(uint64_t)) {
    return error(t, "D_CHR_OFLOW", "character constant is too long");
  }
  t.kind = TokKind::Char;
  for (char b : bytes) t.value = (t.value << 8) | static_cast<unsigned char>(b);
  return t;
}

Token Lexer::lexPunct(Token t) {
  static constexpr const char* kPuncts[] = {
      "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
      "&&",  "||",  "^^",  "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "(",
      ")",   "[",   "]",   "{",  "}",  ".",  ",",  ";",  ":",  "?",  "=",  "<",
      ">",   "+",   "-",   "*",  "/",  "%",  "&",  "|",  "^",  "!",  "~",
  };
  std::string_view rest = src_.substr(st_.pos);
  const char* match = nullptr;
  for (const char* p : kPuncts) {
    if (rest.substr(0, std::strlen(p)) == p) {
      match = p;
      break;
    }
  }
  if (match == nullptr) {
    ++st_.pos;
    return error(t, "D_SYNTAX", "syntax error near " + quoted(rest.substr(0, 1)));
  }
  t.kind = TokKind::Punct;
  t.text = match;
  st_.pos += t.text.size();
  switch (t.text.size() == 1 ? t.text[0] : '\0') {
    case '(':
      ++st_.parens;
      break;
    case '[':
      ++st_.brackets;
      break;
    case '{':
      ++st_.braces;
      break;
    case ')':
      if (--st_.parens < 0) return error(t, "D_SYNTAX", "extra ) in input stream");
      break;
    case ']':
      if (--st_.brackets < 0) return error(t, "D_SYNTAX", "extra ] in input stream");
      break;
    case '}':
      if (--st_.braces < 0) return error(t, "D_SYNTAX", "extra } in input stream");
      break;
    case '/': {
      // A "/" followed by the end, ";", "{" or "/" closes a predicate;
      // anything else makes it a division.
      size_t p = st_.pos;
      while (p < src_.size() && isSpace(src_[p])) ++p;
      char c = at(p);
      if (p >= src_.size() || c == ';' || c == '{' || c == '/') {
        // DTrace's lexer has read up to that character when it decides,
        // so the predicate's end (and an error here) is on its line.
        t.loc = SourceLoc{
            static_cast<uint32_t>(st_.line + std::count(src_.begin() + static_cast<long>(st_.pos),
                                                        src_.begin() + static_cast<long>(p), '\n')),
            t.loc.column};
        if (st_.parens != 0) {
          return error(t, "D_SYNTAX", "closing ) expected in predicate before /");
        }
        if (st_.brackets != 0) {
          return error(t, "D_SYNTAX", "closing ] expected in predicate before /");
        }
        t.kind = TokKind::PredEnd;
      }
      break;
    }
    default:
      break;
  }
  return t;
}

}  // namespace dtrace::parse
