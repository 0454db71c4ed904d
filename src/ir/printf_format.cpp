#include "ir/printf_format.h"

#include <array>
#include <cctype>
#include <climits>

namespace dtrace::ir {
namespace {

// Which argument types a conversion accepts (DTrace's pfcheck_* family).
enum class ArgCheck : uint8_t {
  Address,        // pointer or integer
  KernelAddress,  // pointer, integer or a sym()/func()/mod() value
  UserAddress,    // pointer, integer or a usym()/uaddr()... value
  Stack,          // stack() / ustack() value
  Time,           // 64-bit integer
  String,         // string or char []
  WideString,     // wchar_t []
  CharShortInt,   // integer of at most int size
  Float,          // float, double, long double
  Integer,        // any integer
  Short,          // short of either sign
  Long,           // 64-bit integer (long on LP64)
  LongLong,       // 64-bit integer
  SignedShort,    // exactly short
  UnsignedShort,
  Char,  // char of either sign
  SignedChar,
  UnsignedChar,
  SignedInt,   // exactly int
  SignedLong,  // exactly long / long long
  UnsignedLong,
  LongDouble,
  Void,  // %%: takes nothing
};

struct ConversionSpec {
  const char* name;
  const char* outFormat;
  PrintfRender render;
  ArgCheck check;
  const char* prototype;  // shown as "prototype:" in type mismatch messages
};

constexpr const char* kProtoXint = "char, short, int, long, or long long";
constexpr const char* kProtoCsi = "char, short, or int";
constexpr const char* kProtoFp = "float, double, or long double";
constexpr const char* kProtoAddr = "pointer or integer";
constexpr const char* kProtoUaddr = "pointer or integer (with -p/-c) or _usymaddr (without -p/-c)";
constexpr const char* kProtoCstr = "char [] or string (or use stringof)";
constexpr const char* kProtoWstr = "wchar_t []";

using R = PrintfRender;
using C = ArgCheck;

// The conversions D offers: printf(3C)'s plus DTrace's extensions.
constexpr std::array kConversions = {
    ConversionSpec{"a", "s", R::KernelSymbol, C::KernelAddress, kProtoAddr},
    ConversionSpec{"A", "s", R::UserSymbol, C::UserAddress, kProtoUaddr},
    ConversionSpec{"c", "c", R::SignedInt, C::CharShortInt, kProtoCsi},
    ConversionSpec{"C", "s", R::EscapedChar, C::CharShortInt, kProtoCsi},
    ConversionSpec{"d", "d", R::DecimalInt, C::Integer, kProtoXint},
    ConversionSpec{"e", "e", R::Float, C::Float, kProtoFp},
    ConversionSpec{"E", "E", R::Float, C::Float, kProtoFp},
    ConversionSpec{"f", "f", R::Float, C::Float, kProtoFp},
    ConversionSpec{"g", "g", R::Float, C::Float, kProtoFp},
    ConversionSpec{"G", "G", R::Float, C::Float, kProtoFp},
    // hh: C's char size prefix, which DTrace's dictionary lacks.
    ConversionSpec{"hhd", "d", R::SignedInt, C::SignedChar, "char"},
    ConversionSpec{"hhi", "i", R::SignedInt, C::SignedChar, "char"},
    ConversionSpec{"hho", "o", R::UnsignedInt, C::UnsignedChar, "unsigned char"},
    ConversionSpec{"hhu", "u", R::UnsignedInt, C::UnsignedChar, "unsigned char"},
    ConversionSpec{"hhx", "x", R::UnsignedInt, C::Char, "char"},
    ConversionSpec{"hhX", "X", R::UnsignedInt, C::Char, "char"},
    ConversionSpec{"hd", "d", R::SignedInt, C::SignedShort, "short"},
    ConversionSpec{"hi", "i", R::SignedInt, C::SignedShort, "short"},
    ConversionSpec{"ho", "o", R::UnsignedInt, C::UnsignedShort, "unsigned short"},
    ConversionSpec{"hu", "u", R::UnsignedInt, C::UnsignedShort, "unsigned short"},
    ConversionSpec{"hx", "x", R::UnsignedInt, C::Short, "short"},
    ConversionSpec{"hX", "X", R::UnsignedInt, C::Short, "short"},
    ConversionSpec{"i", "i", R::SignedInt, C::Integer, kProtoXint},
    ConversionSpec{"I", "s", R::InetAddr, C::String, kProtoCstr},
    ConversionSpec{"k", "s", R::Stack, C::Stack, "stack"},
    ConversionSpec{"lc", "c", R::SignedInt, C::SignedInt, "int"},
    ConversionSpec{"ld", "d", R::SignedInt, C::SignedLong, "long"},
    ConversionSpec{"li", "i", R::SignedInt, C::SignedLong, "long"},
    ConversionSpec{"lo", "o", R::UnsignedInt, C::UnsignedLong, "unsigned long"},
    ConversionSpec{"lu", "u", R::UnsignedInt, C::UnsignedLong, "unsigned long"},
    ConversionSpec{"ls", "s", R::WideString, C::WideString, kProtoWstr},
    ConversionSpec{"lx", "x", R::UnsignedInt, C::Long, "long"},
    ConversionSpec{"lX", "X", R::UnsignedInt, C::Long, "long"},
    ConversionSpec{"lld", "d", R::SignedInt, C::SignedLong, "long long"},
    ConversionSpec{"lli", "i", R::SignedInt, C::SignedLong, "long long"},
    ConversionSpec{"llo", "o", R::UnsignedInt, C::UnsignedLong, "unsigned long long"},
    ConversionSpec{"llu", "u", R::UnsignedInt, C::UnsignedLong, "unsigned long long"},
    ConversionSpec{"llx", "x", R::UnsignedInt, C::LongLong, "long long"},
    ConversionSpec{"llX", "X", R::UnsignedInt, C::LongLong, "long long"},
    ConversionSpec{"Le", "e", R::Float, C::LongDouble, "long double"},
    ConversionSpec{"LE", "E", R::Float, C::LongDouble, "long double"},
    ConversionSpec{"Lf", "f", R::Float, C::LongDouble, "long double"},
    ConversionSpec{"Lg", "g", R::Float, C::LongDouble, "long double"},
    ConversionSpec{"LG", "G", R::Float, C::LongDouble, "long double"},
    ConversionSpec{"o", "o", R::UnsignedInt, C::Integer, kProtoXint},
    // DTrace prints %p as bare hexadecimal (its output conversion is "x").
    ConversionSpec{"p", "x", R::UnsignedInt, C::Address, kProtoAddr},
    ConversionSpec{"P", "s", R::Port, C::UnsignedShort, "uint16_t"},
    ConversionSpec{"s", "s", R::String, C::String, kProtoCstr},
    ConversionSpec{"S", "s", R::EscapedString, C::String, kProtoCstr},
    ConversionSpec{"T", "s", R::Time822, C::Time, "int64_t"},
    ConversionSpec{"u", "u", R::UnsignedInt, C::Integer, kProtoXint},
    ConversionSpec{"wc", "c", R::SignedInt, C::SignedInt, "int"},
    ConversionSpec{"ws", "s", R::WideString, C::WideString, kProtoWstr},
    ConversionSpec{"x", "x", R::UnsignedInt, C::Integer, kProtoXint},
    ConversionSpec{"X", "X", R::UnsignedInt, C::Integer, kProtoXint},
    ConversionSpec{"Y", "s", R::Time, C::Time, "int64_t"},
    ConversionSpec{"%", "%", R::Percent, C::Void, "void"},
};

const ConversionSpec* findConversion(std::string_view name) {
  for (const auto& spec : kConversions) {
    if (name == spec.name) return &spec;
  }
  return nullptr;
}

bool isFloatName(const std::string& t) {
  return t == "float" || t == "double" || t == "long double";
}

bool accepts(ArgCheck check, const PrintfArg& a) {
  using Class = PrintfArg::Class;
  const bool integer = a.cls == Class::Integer;
  switch (check) {
    case C::Address:
      return integer || a.cls == Class::Pointer;
    case C::KernelAddress:
      return integer || a.cls == Class::Pointer || a.typeName == "_symaddr";
    case C::UserAddress:
      return integer || a.cls == Class::Pointer || a.typeName == "_usymaddr";
    case C::Stack:
      return a.typeName == "stack";
    case C::Time:
      return integer && a.size == 8;
    case C::String:
      return a.cls == Class::String;
    case C::WideString:
      return a.typeName.starts_with("wchar_t [");
    case C::CharShortInt:
      return integer && a.size <= 4;
    case C::Float:
      return isFloatName(a.typeName);
    case C::Integer:
      return integer;
    case C::Short:
      return integer && a.size == 2;
    case C::Long:
    case C::LongLong:
      return integer && a.size == 8;
    case C::SignedShort:
      return integer && a.size == 2 && a.isSigned;
    case C::UnsignedShort:
      return integer && a.size == 2 && !a.isSigned;
    case C::Char:
      return integer && a.size == 1;
    case C::SignedChar:
      return integer && a.size == 1 && a.isSigned;
    case C::UnsignedChar:
      return integer && a.size == 1 && !a.isSigned;
    case C::SignedInt:
      return integer && a.size == 4 && a.isSigned;
    case C::SignedLong:
      return integer && a.size == 8 && a.isSigned;
    case C::UnsignedLong:
      return integer && a.size == 8 && !a.isSigned;
    case C::LongDouble:
      return a.typeName == "long double";
    case C::Void:
      return false;
  }
  return false;
}

std::string conversionNumber(size_t n) { return "format conversion #" + std::to_string(n); }

// DTrace reports a malformed format as a syntax error of the program.
PrintfError syntaxError(std::string message) { return PrintfError{"D_SYNTAX", std::move(message)}; }

// The flags, width, precision and name of conversion `number`, whose '%'
// is at s[p]; leaves p at its last character.
std::optional<PrintfError> parseConversion(const std::string& s, size_t& p, size_t number,
                                           PrintfConversion& conv, std::string& name) {
  int digits = 0;
  int dots = 0;
  bool done = false;
  while (!done) {
    ++p;
    const char c = p < s.size() ? s[p] : '\0';
    if (c >= '0' && c <= '9') {
      if (dots == 0 && digits == 0 && c == '0') {
        // A leading zero is the zero-pad flag, and it wins over '-'.
        conv.zeroPad = true;
        conv.left = false;
        continue;
      }
      int n = 0;
      while (p < s.size() && std::isdigit(static_cast<unsigned char>(s[p]))) {
        // As C's printf, which cannot print a field wider than INT_MAX.
        if (n > (INT_MAX - (s[p] - '0')) / 10) {
          return syntaxError(conversionNumber(number) + " has a " + (dots ? "precision" : "width") +
                             " too large to print");
        }
        n = n * 10 + (s[p] - '0');
        ++p;
      }
      --p;
      (dots ? conv.precision : conv.width) = n;
      ++digits;
      continue;
    }
    switch (c) {
      case '#':
        conv.alt = true;
        break;
      case '*': {
        bool& flag = dots ? conv.dynPrecision : conv.dynWidth;
        if (flag) {
          return syntaxError(conversionNumber(number) +
                             " has more than one '*' specified for the output " +
                             (dots ? "precision" : "width"));
        }
        flag = true;
        break;
      }
      case '+':
        conv.plusSign = true;
        break;
      case '-':
        conv.left = true;
        conv.zeroPad = false;
        break;
      case '.':
        if (dots++ != 0) {
          return syntaxError(conversionNumber(number) + " has more than one '.' specified");
        }
        digits = 0;
        break;
      case '?':
        conv.width = 16;  // the width of a pointer on LP64
        break;
      case '@':
        conv.aggregation = true;
        break;
      case '\'':
        conv.group = true;
        break;
      case ' ':
        conv.space = true;
        break;
      case '$':
        return syntaxError(conversionNumber(number) + " uses unsupported positional format (%n$)");
      case '%':
        if (s[p - 1] != '%') {
          return syntaxError(conversionNumber(number) +
                             " cannot be combined with other format flags: %%");
        }
        name += c;
        done = true;
        break;
      case '\0':
        return syntaxError(conversionNumber(number) + " name expected before end of format string");
      case 'h':
      case 'l':
      case 'L':
      case 'w':
        if (name.size() < 6) name += c;
        break;
      default:
        name += c;
        done = true;
        break;
    }
  }
  return std::nullopt;
}

}  // namespace

std::variant<PrintfFormat, PrintfError> PrintfFormat::parse(std::string_view format) {
  PrintfFormat result;
  result.text_ = std::string(format);
  const std::string& s = result.text_;
  size_t q = 0;
  size_t p;
  while ((p = s.find('%', q)) != std::string::npos) {
    PrintfPiece piece;
    piece.prefix = s.substr(q, p - q);
    PrintfConversion conv;
    const size_t number = result.pieces_.size() + 1;
    std::string name;
    if (auto error = parseConversion(s, p, number, conv, name)) return *error;
    const ConversionSpec* spec = findConversion(name);
    if (spec == nullptr) {
      return syntaxError(conversionNumber(number) + " is undefined: %" + name);
    }
    conv.name = spec->name;
    conv.outFormat = spec->outFormat;
    conv.render = spec->render;
    piece.conversion = std::move(conv);
    result.pieces_.push_back(std::move(piece));
    q = p + 1;
  }

  if (q < s.size() || s.empty()) {
    result.pieces_.push_back(PrintfPiece{s.substr(q), std::nullopt});
  }
  return result;
}

size_t PrintfFormat::fieldCount() const {
  size_t n = 0;
  for (const auto& piece : pieces_) {
    if (!piece.conversion) continue;
    const PrintfConversion& c = *piece.conversion;
    if (c.render == PrintfRender::Percent) continue;
    n += static_cast<size_t>(c.dynWidth) + static_cast<size_t>(c.dynPrecision);
    if (!c.aggregation) ++n;
  }
  return n;
}

std::optional<PrintfError> PrintfFormat::check(
    std::span<const PrintfArg> args, std::string_view funcName,
    const std::optional<PrintfArg>& aggregationValue) const {
  const std::string func(funcName);
  const bool forAggregation = aggregationValue.has_value();
  // Argument numbers in messages count the format string as argument #1.
  constexpr size_t kFirstValueArg = 1;

  if (text_.empty()) {
    return PrintfError{"D_PRINTF_FMT_EMPTY", func + "( ) format string is empty"};
  }

  size_t next = 0;  // index of the next unconsumed value argument
  for (size_t i = 0; i < pieces_.size(); ++i) {
    if (!pieces_[i].conversion) continue;
    const PrintfConversion& conv = *pieces_[i].conversion;
    const std::string number = std::to_string(i + 1);
    if (conv.render == PrintfRender::Percent) continue;

    // The width argument comes before the precision argument.
    std::vector<const char*> dynamics;
    if (conv.dynWidth) dynamics.push_back("*");
    if (conv.dynPrecision) dynamics.push_back(".*");
    for (const char* dyn : dynamics) {
      if (next >= args.size()) {
        return PrintfError{"D_PRINTF_DYN_PROTO",
                           func + "( ) prototype mismatch: conversion #" + number + " (%" +
                               conv.name + ") is missing a corresponding \"" + dyn + "\" argument"};
      }
      if (args[next].cls != PrintfArg::Class::Integer) {
        return PrintfError{"D_PRINTF_DYN_TYPE",
                           func + "( ) argument #" + std::to_string(next + kFirstValueArg + 1) +
                               " is incompatible with conversion #" + number +
                               " prototype:\n\tconversion: % " + dyn + " " + conv.name +
                               "\n\t prototype: int\n\t  argument: " + args[next].typeName};
      }
      ++next;
    }

    // A %@ conversion takes the aggregating action's result, checked as an
    // argument would be (dt_printf_validate's aggnode).
    const PrintfArg* arg = nullptr;
    std::string argName;
    if (conv.aggregation) {
      if (!forAggregation) {
        return PrintfError{
            "D_PRINTF_AGG_CONV",
            "%@ conversion requires an aggregation and is not for use with " + func + "( )"};
      }
      arg = &*aggregationValue;
      argName = "aggregating action";
    } else {
      if (next >= args.size()) {
        return PrintfError{"D_PRINTF_ARG_PROTO", func + "( ) prototype mismatch: conversion #" +
                                                     number + " (%" + conv.name +
                                                     ") is missing a corresponding value argument"};
      }
      arg = &args[next];
      argName = "argument #" + std::to_string(next + kFirstValueArg + 1);
      ++next;
    }
    const ConversionSpec* spec = findConversion(conv.name);
    if (spec == nullptr || !accepts(spec->check, *arg)) {
      return PrintfError{"D_PRINTF_ARG_TYPE",
                         func + "( ) " + argName + " is incompatible with conversion #" + number +
                             " prototype:\n\tconversion: %" + conv.name + "\n\t prototype: " +
                             (spec ? spec->prototype : "") + "\n\t  argument: " + arg->typeName};
    }
  }

  if (!forAggregation && next < args.size()) {
    return PrintfError{"D_PRINTF_ARG_EXTRA", func + "( ) prototype mismatch: only " +
                                                 std::to_string(next) +
                                                 " arguments required by this format string"};
  }
  return std::nullopt;
}

}  // namespace dtrace::ir
