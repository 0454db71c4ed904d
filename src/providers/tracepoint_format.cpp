#include "providers/tracepoint_format.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "bpf/attach.h"

namespace dtrace::providers {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// "key:value;" at the start of `s`; returns the value and advances past ';'.
bool takeItem(std::string_view& s, std::string_view key, std::string_view& value) {
  s = trim(s);
  if (!s.starts_with(key) || s.size() <= key.size() || s[key.size()] != ':') return false;
  s.remove_prefix(key.size() + 1);
  size_t semi = s.find(';');
  if (semi == std::string_view::npos) return false;
  value = trim(s.substr(0, semi));
  s.remove_prefix(semi + 1);
  return true;
}

bool toInt(std::string_view s, int& out) {
  if (s.empty()) return false;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

bool isIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Splits a declaration "const char * filename" or "char comm[16]" into the
// type ("const char *", "char[16]") and the name.
bool splitDeclaration(std::string_view decl, std::string& type, std::string& name) {
  std::string suffix;  // an array bound moves to the type
  size_t bracket = decl.find('[');
  if (bracket != std::string_view::npos) {
    suffix = std::string(decl.substr(bracket));
    decl = trim(decl.substr(0, bracket));
  }
  size_t end = decl.size();
  size_t begin = end;
  while (begin > 0 && isIdentChar(decl[begin - 1])) --begin;
  if (begin == end) return false;
  name = std::string(decl.substr(begin, end - begin));
  std::string_view t = trim(decl.substr(0, begin));
  // Normalise pointer spacing to DTrace's style: "char *", "char **".
  std::string out;
  for (size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (c == '*') {
      while (!out.empty() && out.back() == ' ') out.pop_back();
      if (!out.empty() && out.back() != '*') out.push_back(' ');
      out.push_back('*');
    } else if (c == ' ' || c == '\t') {
      if (!out.empty() && out.back() != ' ' && out.back() != '*') out.push_back(' ');
    } else {
      if (!out.empty() && out.back() == '*') out.push_back(' ');
      out.push_back(c);
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  type = out + suffix;
  return !type.empty();
}

}  // namespace

Result<std::vector<TracepointField>> parseTracepointFormat(std::string_view text) {
  std::vector<TracepointField> fields;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    const std::string_view original = line;
    std::string_view decl, offset, size, sign;
    if (!takeItem(line, "field", decl)) continue;
    TracepointField f;
    if (!takeItem(line, "offset", offset) || !takeItem(line, "size", size) ||
        !toInt(offset, f.offset) || !toInt(size, f.size) ||
        !splitDeclaration(decl, f.type, f.name)) {
      return Error{"malformed tracepoint format line: " + std::string(trim(original))};
    }
    if (takeItem(line, "signed", sign)) f.isSigned = sign == "1";
    fields.push_back(std::move(f));
  }
  if (fields.empty()) return Error{"tracepoint format has no fields"};
  return fields;
}

Result<std::vector<TracepointField>> readTracepointFormat(const std::string& category,
                                                          const std::string& event) {
  const std::string path = bpf::tracefsRoot() + "/events/" + category + "/" + event + "/format";
  std::ifstream in(path);
  if (!in) return Error{"cannot read " + path + ": " + strerror(errno)};
  std::ostringstream text;
  text << in.rdbuf();
  return parseTracepointFormat(text.str());
}

}  // namespace dtrace::providers
