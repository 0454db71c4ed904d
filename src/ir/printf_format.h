// A D printf()/printa() format string, parsed once at compile time into
// literal text and conversions, and checked against the argument types the
// way DTrace checks them (same conversions, prototypes and messages).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace dtrace::ir {

// What the compiler knows about one printf() value argument.
struct PrintfArg {
  enum class Class { Integer, String, Pointer, Other } cls = Class::Integer;
  uint32_t size = 0;      // bytes
  bool isSigned = false;  // integers only
  std::string typeName;   // D type name for messages: "int", "string", "char *"
};

struct PrintfError {
  std::string tag;      // D error tag: "D_PRINTF_ARG_TYPE", "D_SYNTAX" for a malformed format
  std::string message;  // DTrace's wording, without a trailing newline
};

// How a conversion turns the bytes of its record field into text.
enum class PrintfRender : uint8_t {
  Percent,        // %%: no argument
  SignedInt,      // %i %c %hd %ld %lld ...: sign-extended from the field size
  UnsignedInt,    // %u %o %x %X %p ...: zero-extended from the field size
  DecimalInt,     // %d: signed or unsigned as the argument's type is
  Float,          // %e %f %g ...
  String,         // %s
  EscapedString,  // %S: non-printable characters as C escapes
  EscapedChar,    // %C
  KernelSymbol,   // %a
  UserSymbol,     // %A
  Stack,          // %k
  Time,           // %Y: "2024 Jan  3 17:20:00"
  Time822,        // %T: RFC 822
  Port,           // %P
  InetAddr,       // %I
  WideString,     // %ls %ws
};

struct PrintfConversion {
  std::string name;       // dictionary name as written: "d", "lld", "hx", "%"
  std::string outFormat;  // C conversion emitted for it: "d", "x", "s", "c"
  PrintfRender render = PrintfRender::SignedInt;
  bool alt = false;           // '#'
  bool zeroPad = false;       // '0'
  bool left = false;          // '-'
  bool plusSign = false;      // '+'
  bool group = false;         // '\''
  bool space = false;         // ' '
  bool aggregation = false;   // '@' (printa: the aggregation's value)
  bool dynWidth = false;      // '*'
  bool dynPrecision = false;  // '.*'
  int width = 0;
  int precision = 0;
};

// Literal text followed by a conversion; the last piece may be text only.
struct PrintfPiece {
  std::string prefix;
  std::optional<PrintfConversion> conversion;
};

class PrintfFormat {
 public:
  static std::variant<PrintfFormat, PrintfError> parse(std::string_view format);

  // Checks the value arguments (those after the format string) against the
  // conversions. funcName names the action in messages ("printf").
  // `aggregationValue` is what a %@ conversion takes, for printa() only: the
  // aggregating action's result (dt_printf_validate's fake int64_t node,
  // uint64_t for count()); without it %@ is refused.
  std::optional<PrintfError> check(
      std::span<const PrintfArg> args, std::string_view funcName,
      const std::optional<PrintfArg>& aggregationValue = std::nullopt) const;

  const std::vector<PrintfPiece>& pieces() const { return pieces_; }
  const std::string& text() const { return text_; }
  // Record fields a record of this format carries: one per value conversion
  // plus one per '*' width or precision (%% and %@ take none).
  size_t fieldCount() const;

 private:
  std::string text_;
  std::vector<PrintfPiece> pieces_;
};

}  // namespace dtrace::ir
