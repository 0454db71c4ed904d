#include "print/printf.h"

#include <arpa/inet.h>
#include <netdb.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <type_traits>

#include "print/appendf.h"

namespace dtrace::print {
namespace {

using ir::PrintfConversion;
using ir::PrintfRender;

// Appends snprintf(fmt, value) to out, whatever the length of the result.
template <class T>
void appendFormatted(std::string& out, const std::string& fmt, T value) {
  char buf[256];
  const int n = std::snprintf(buf, sizeof buf, fmt.c_str(), value);
  if (n < 0) return;
  if (static_cast<size_t>(n) < sizeof buf) {
    out.append(buf, static_cast<size_t>(n));
    return;
  }
  const size_t old = out.size();
  out.resize(old + static_cast<size_t>(n) + 1);
  std::snprintf(out.data() + old, static_cast<size_t>(n) + 1, fmt.c_str(), value);
  out.resize(old + static_cast<size_t>(n));
}

// "%" + flags + width + precision, before the length modifier and conversion.
std::string formatStem(const PrintfConversion& c, int width, int precision) {
  std::string f = "%";
  if (c.alt) f += '#';
  if (c.zeroPad) f += '0';
  if (width < 0 || c.left) f += '-';
  if (c.plusSign) f += '+';
  if (c.group) f += '\'';
  if (c.space) f += ' ';
  if (width != 0) f += std::to_string(width < 0 ? -width : width);
  // DTrace drops an explicit zero precision, as it does an absent one.
  if (precision > 0) f += "." + std::to_string(precision);
  return f;
}

// Non-printable characters as C escapes, the way %S shows them.
std::string escape(std::string_view s) {
  std::string out;
  for (unsigned char ch : s) {
    switch (ch) {
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\v':
        out += "\\v";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      default:
        if (ch >= 0x20 && ch < 0x7f) {
          out += static_cast<char>(ch);
        } else {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\%03o", ch);
          out += buf;
        }
    }
  }
  return out;
}

std::string formatTime(uint64_t nanoseconds, const char* pattern) {
  const time_t seconds = static_cast<time_t>(nanoseconds / 1000000000ULL);
  struct tm tm;
  localtime_r(&seconds, &tm);
  char buf[64];
  const size_t n = std::strftime(buf, sizeof buf, pattern, &tm);
  return std::string(buf, n);
}

std::string formatPort(uint16_t port) {
  struct servent entry;
  struct servent* found = nullptr;
  char buf[1024];
  if (getservbyport_r(htons(port), nullptr, &entry, buf, sizeof buf, &found) == 0 &&
      found != nullptr) {
    return found->s_name;
  }
  return std::to_string(port);
}

// %A: a uaddr()-like value carries its process; a plain address is one of
// the -c or -p process's.
std::string userAddress(const SymbolContext& symbols, const ir::Field& f, const uint8_t* p) {
  if (ir::isUserCodeKind(f.kind)) {
    return userAddressName(symbols, static_cast<int>(readUnsigned(p, 8)),
                           readUnsigned(p + ir::kUserPidBytes, 8));
  }
  return userAddressName(symbols, symbols.targetPid, readUnsigned(p, f.size));
}

// A conversion with no flags, width or precision in decimal, octal or
// lowercase hex prints the digits std::to_chars gives, without snprintf's
// cost (most printf() records drained are such conversions).
// `value` is what snprintf would be passed: %d and %i read it as signed,
// the others as unsigned, as C's conversions do.
template <class T>
bool appendPlain(std::string& out, const std::string& stem, const std::string& conv, T value) {
  if (stem.size() != 1 || conv.size() != 1) return false;
  const auto asUnsigned = static_cast<std::make_unsigned_t<T>>(value);
  switch (conv[0]) {
    case 'd':
    case 'i':
      print::appendInteger(out, static_cast<std::make_signed_t<T>>(value));
      return true;
    case 'u':
      print::appendInteger(out, asUnsigned);
      return true;
    case 'x':
      print::appendInteger(out, asUnsigned, 16);
      return true;
    case 'o':
      print::appendInteger(out, asUnsigned, 8);
      return true;
    default:
      return false;
  }
}

// Integers narrower than 64 bits go through int/unsigned, as in C varargs.
void appendInteger(std::string& out, std::string stem, const std::string& conv, const ir::Field& f,
                   const uint8_t* p, bool isSigned) {
  const bool plain =
      f.size == 8
          ? (isSigned ? appendPlain(out, stem, conv, static_cast<long long>(readSigned(p, 8)))
                      : appendPlain(out, stem, conv,
                                    static_cast<unsigned long long>(readUnsigned(p, 8))))
          : (isSigned
                 ? appendPlain(out, stem, conv, static_cast<int32_t>(readSigned(p, f.size)))
                 : appendPlain(out, stem, conv, static_cast<uint32_t>(readUnsigned(p, f.size))));
  if (plain) return;
  if (conv == "c") {
    appendFormatted(out, stem + "c", static_cast<int>(readSigned(p, f.size)));
  } else if (f.size == 8) {
    stem += "ll" + conv;
    if (isSigned) {
      appendFormatted(out, stem, static_cast<long long>(readSigned(p, f.size)));
    } else {
      appendFormatted(out, stem, static_cast<unsigned long long>(readUnsigned(p, f.size)));
    }
  } else if (isSigned) {
    appendFormatted(out, stem + conv, static_cast<int32_t>(readSigned(p, f.size)));
  } else {
    appendFormatted(out, stem + conv, static_cast<uint32_t>(readUnsigned(p, f.size)));
  }
}

// One conversion of the value at p (field f), with its flags, width and
// precision already in `stem` (%k also indents by a left-justified width).
Result<void> appendConversion(std::string& out, const PrintfConversion& c, const std::string& stem,
                              const ir::Field* f, const uint8_t* p, int width,
                              const SymbolContext& names) {
  switch (c.render) {
    case PrintfRender::SignedInt:
      appendInteger(out, stem, c.outFormat, *f, p, true);
      break;
    case PrintfRender::UnsignedInt:
      appendInteger(out, stem, c.outFormat, *f, p, false);
      break;
    case PrintfRender::DecimalInt: {
      // %d follows the signedness of its argument's type.
      const bool isSigned = f->kind != ir::DataKind::Unsigned;
      appendInteger(out, stem, isSigned ? "d" : "u", *f, p, isSigned);
      break;
    }
    case PrintfRender::Float:
      if (f->size == 4) {
        float v;
        std::memcpy(&v, p, 4);
        appendFormatted(out, stem + c.outFormat, static_cast<double>(v));
      } else if (f->size == 8) {
        double v;
        std::memcpy(&v, p, 8);
        appendFormatted(out, stem + c.outFormat, v);
      } else if (f->size == sizeof(long double)) {
        long double v;
        std::memcpy(&v, p, sizeof v);
        appendFormatted(out, stem + "L" + c.outFormat, v);
      } else {
        return makeError("no conversion for a value of this size");
      }
      break;
    case PrintfRender::String:
    case PrintfRender::InetAddr:
    case PrintfRender::WideString:
      appendFormatted(out, stem + "s", std::string(readString(p, f->size)).c_str());
      break;
    case PrintfRender::EscapedString:
      appendFormatted(out, stem + "s", escape(readString(p, f->size)).c_str());
      break;
    case PrintfRender::EscapedChar: {
      const char ch = static_cast<char>(readSigned(p, f->size));
      appendFormatted(out, stem + "s", escape(std::string_view(&ch, 1)).c_str());
      break;
    }
    case PrintfRender::KernelSymbol:
      appendFormatted(out, stem + "s", kernelAddressName(readUnsigned(p, f->size)).c_str());
      break;
    case PrintfRender::UserSymbol:
      appendFormatted(out, stem + "s", userAddress(names, *f, p).c_str());
      break;
    case PrintfRender::Stack: {
      // The frames are formatted by the conversion; a left-justified
      // width also indents them (DTrace's pfprint_stack).
      ir::Field stack = *f;
      stack.offset = 0;
      appendStack(out, stack, p, names, c.left || width < 0 ? std::abs(width) : 0, stem + "s");
      break;
    }
    case PrintfRender::Time:
      appendFormatted(out, stem + "s",
                      formatTime(readUnsigned(p, f->size), "%Y %b %e %H:%M:%S").c_str());
      break;
    case PrintfRender::Time822:
      appendFormatted(out, stem + "s",
                      formatTime(readUnsigned(p, f->size), "%a, %d %b %G %T %Z").c_str());
      break;
    case PrintfRender::Port:
      appendFormatted(out, stem + "s",
                      formatPort(static_cast<uint16_t>(readUnsigned(p, f->size))).c_str());
      break;
    case PrintfRender::Percent:
      break;
  }
  return {};
}

}  // namespace

std::string_view readString(const uint8_t* p, uint32_t size) {
  const void* nul = std::memchr(p, 0, size);
  const size_t len = nul ? static_cast<size_t>(static_cast<const uint8_t*>(nul) - p) : size;
  return std::string_view(reinterpret_cast<const char*>(p), len);
}

Result<void> appendPrintf(std::string& out, const ir::PrintfFormat& format,
                          std::span<const ir::Field> fields, const uint8_t* data, size_t size,
                          const AggregationValueFn& aggregationValue,
                          const SymbolContext* symbols) {
  const SymbolContext noSymbols;
  const SymbolContext& names = symbols ? *symbols : noSymbols;
  size_t next = 0;
  size_t nextAggregation = 0;
  auto takeField = [&]() -> const ir::Field* {
    if (next >= fields.size()) return nullptr;
    const ir::Field* f = &fields[next++];
    if (static_cast<size_t>(f->offset) + f->size > size) return nullptr;
    return f;
  };
  auto mismatch = [&]() {
    return makeError("printf( ) record does not match its format \"" + format.text() + "\"");
  };

  for (const auto& piece : format.pieces()) {
    out += piece.prefix;
    if (!piece.conversion) continue;
    const PrintfConversion& c = *piece.conversion;
    if (c.render == PrintfRender::Percent) {
      out += '%';
      continue;
    }
    if (c.aggregation) {
      if (!aggregationValue) return mismatch();  // only printa() supplies %@ values
      aggregationValue(out, c, formatStem(c, c.width, c.precision), nextAggregation++);
      continue;
    }

    int width = c.width;
    int precision = c.precision;
    if (c.dynWidth) {
      const ir::Field* f = takeField();
      if (f == nullptr) return mismatch();
      width = static_cast<int>(readSigned(data + f->offset, f->size));
    }
    if (c.dynPrecision) {
      const ir::Field* f = takeField();
      if (f == nullptr) return mismatch();
      precision = static_cast<int>(readSigned(data + f->offset, f->size));
    }
    const ir::Field* f = takeField();
    if (f == nullptr) return mismatch();
    const uint8_t* p = data + f->offset;
    std::string stem = formatStem(c, width, precision);

    if (auto r = appendConversion(out, c, stem, f, p, width, names); !r) return mismatch();
  }
  return {};
}

void appendIntegerConversion(std::string& out, const ir::PrintfConversion& c,
                             const std::string& stem, int64_t value) {
  ir::Field f;
  f.size = sizeof value;
  f.kind = ir::DataKind::Signed;
  uint8_t bytes[sizeof value];
  std::memcpy(bytes, &value, sizeof value);
  (void)appendConversion(out, c, stem, &f, bytes, c.width, SymbolContext{});
}

}  // namespace dtrace::print
