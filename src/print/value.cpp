#include "print/value.h"

#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "print/appendf.h"
#include "print/printf.h"
#include "print/trace.h"

namespace dtrace::print {
namespace {

using ir::TypeInfo;
using ir::TypeKind;

// A character as a C character constant: 't', '\n', '\377'.
std::string charLiteral(uint8_t c) {
  switch (c) {
    case '\0':
      return "'\\0'";
    case '\n':
      return "'\\n'";
    case '\t':
      return "'\\t'";
    case '\r':
      return "'\\r'";
    case '\'':
      return "'\\''";
    case '\\':
      return "'\\\\'";
    default:
      break;
  }
  if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
  char buf[8];
  std::snprintf(buf, sizeof buf, "'\\%03o'", c);
  return buf;
}

class ValuePrinter {
 public:
  ValuePrinter(std::string& out, const PrintedValue& v)
      : out_(out), v_(v), size_(v.types[v.type].size) {}

  // A scalar follows on the current line; an object (through a pointer, or
  // a struct, union or array value) starts on a line of its own.
  void print() {
    const TypeInfo& t = v_.types[v_.type];
    const bool aggregate =
        t.kind == TypeKind::Struct || t.kind == TypeKind::Union || t.kind == TypeKind::Array;
    if (v_.address) {
      appendf(out_, "0x%llx = *\n", static_cast<unsigned long long>(*v_.address));
      indent(0);
    } else if (aggregate) {
      out_ += '\n';
      indent(0);
    }
    value(t, 0, 0, "\n");
    closePending();
  }

 private:
  void indent(int depth) { out_.append(static_cast<size_t>(kDataColumn + depth), ' '); }

  bool inRecord(uint64_t at, uint64_t n) const { return at + n <= size_; }

  // Appends the value of type t at byte `at`, then `end`; the caller has
  // written the indentation and any ".member = ".
  void value(const TypeInfo& t, uint32_t at, int depth, const char* end) {
    out_ += '(';
    out_ += t.name;
    out_ += ')';
    switch (t.kind) {
      case TypeKind::Struct:
      case TypeKind::Union:
        out_ += " {\n";
        members(t, at, depth + 1);
        // Closed when the next line comes: "..." for a truncated value goes
        // before the closing braces of the members it interrupted.
        pending_.emplace_back(depth, end);
        return;
      case TypeKind::Array:
        out_ += " [\n";
        elements(t, at, depth + 1);
        closePending();
        indent(depth);
        out_ += ']';
        break;
      default:
        scalar(t, at);
        break;
    }
    out_ += end;
  }

  void members(const TypeInfo& t, uint32_t base, int depth) {
    for (const ir::TypeMember& m : t.members) {
      if (truncated_) return;
      const uint32_t at = base + m.bitOffset / 8;
      if (v_.printSize != 0 && at >= v_.printSize) {
        indent(depth);
        out_ += "...\n";
        truncated_ = true;
        return;
      }
      closePending();
      if (m.name.empty()) continue;  // unnamed bit-fields are padding
      const TypeInfo& mt = v_.types[m.type];
      if (m.bitWidth != 0) {
        const uint64_t bits = bitField(base * 8 + m.bitOffset, m.bitWidth, mt.isSigned);
        if (bits == 0) continue;
        indent(depth);
        appendf(out_, ".%s = (%s)", m.name.c_str(), mt.name.c_str());
        appendf(out_, mt.isSigned ? "%lld,\n" : "%llu,\n", static_cast<long long>(bits));
        continue;
      }
      if (isZero(at, mt.size)) continue;
      indent(depth);
      out_ += '.';
      out_ += m.name;
      out_ += " = ";
      value(mt, at, depth, ",\n");
    }
  }

  // Every element; a char array up to its terminating NUL.
  void elements(const TypeInfo& t, uint32_t base, int depth) {
    const TypeInfo& et = v_.types[t.element];
    for (uint32_t i = 0; i < t.count && inRecord(base + uint64_t{i} * et.size, et.size); i++) {
      const uint32_t at = base + i * et.size;
      if (et.isChar && v_.bytes[at] == 0) break;
      closePending();
      indent(depth);
      value(et, at, depth, ",\n");
    }
  }

  void scalar(const TypeInfo& t, uint32_t at) {
    if (!inRecord(at, t.size)) return;
    const uint8_t* p = v_.bytes + at;
    switch (t.kind) {
      case TypeKind::Integer:
        if (t.isChar) {
          out_ += charLiteral(*p);
        } else if (t.isSigned) {
          appendf(out_, "%lld", static_cast<long long>(readSigned(p, t.size)));
        } else {
          appendf(out_, "%llu", static_cast<unsigned long long>(readUnsigned(p, t.size)));
        }
        break;
      case TypeKind::Enum: {
        const int64_t v =
            t.isSigned ? readSigned(p, t.size) : static_cast<int64_t>(readUnsigned(p, t.size));
        for (const ir::TypeEnumerator& e : t.enumerators) {
          if (e.value == v) {
            out_ += e.name;
            return;
          }
        }
        appendf(out_, "%lld", static_cast<long long>(v));
        break;
      }
      case TypeKind::Pointer:
        appendf(out_, "0x%llx", static_cast<unsigned long long>(readUnsigned(p, t.size)));
        break;
      case TypeKind::Float:
        appendFloat(p, t.size);
        break;
      case TypeKind::String:
        out_ += '"';
        out_ += readString(p, t.size);
        out_ += '"';
        break;
      default:
        break;
    }
  }

  void appendFloat(const uint8_t* p, uint32_t size) {
    if (size == sizeof(float)) {
      float f;
      std::memcpy(&f, p, sizeof f);
      appendf(out_, "%g", static_cast<double>(f));
    } else if (size == sizeof(double)) {
      double d;
      std::memcpy(&d, p, sizeof d);
      appendf(out_, "%g", d);
    } else if (size == sizeof(long double)) {
      long double d;
      std::memcpy(&d, p, sizeof d);
      appendf(out_, "%Lg", d);
    }
  }

  // The value of a bit-field `width` bits long at bit `bit` of the value.
  uint64_t bitField(uint64_t bit, uint32_t width, bool isSigned) const {
    const uint64_t first = bit / 8;
    const uint64_t last = (bit + width + 7) / 8;
    if (width == 0 || width > 64 || last > size_) return 0;
    unsigned __int128 raw = 0;
    for (uint64_t i = last; i > first; i--) raw = raw << 8 | v_.bytes[i - 1];
    uint64_t v = static_cast<uint64_t>(raw >> (bit % 8));
    if (width < 64) {
      v &= (uint64_t{1} << width) - 1;
      if (isSigned && (v >> (width - 1)) != 0) v |= ~uint64_t{0} << width;
    }
    return v;
  }

  bool isZero(uint32_t at, uint32_t n) const {
    if (!inRecord(at, n)) return true;
    for (uint32_t i = 0; i < n; i++) {
      if (v_.bytes[at + i] != 0) return false;
    }
    return true;
  }

  void closePending() {
    for (const auto& [depth, end] : pending_) {
      indent(depth);
      out_ += '}';
      out_ += end;
    }
    pending_.clear();
  }

  std::string& out_;
  const PrintedValue& v_;
  const uint64_t size_;
  bool truncated_ = false;
  std::vector<std::pair<int, const char*>> pending_;  // structs to close: depth, what follows '}'
};

}  // namespace

void appendPrintedValue(std::string& out, const PrintedValue& value) {
  if (value.type >= value.types.size()) return;
  ValuePrinter(out, value).print();
}

}  // namespace dtrace::print
