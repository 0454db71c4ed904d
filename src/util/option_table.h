// DTrace's compile-time and run-time options (-x name[=value], #pragma D
// option) in one table: name, kind, default and parser, as libdtrace has
// them, with the same value syntax (sizes with k/m/g/t, times with
// ns/us/ms/s/.../hz) and the same error texts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace dtrace {

enum class OptionKind {
  Flag,     // compile-time switch; refuses a value ("errtags", "zdefs", "cpp")
  Runtime,  // run-time value; no value means set (0), else an integer ("quiet", "nspec", "cpu")
  Size,     // bytes: integer with optional k/m/g/t suffix ("bufsize=4m")
  Time,     // nanoseconds: integer with ns/us/ms/s/min/h/d or hz suffix ("switchrate=10hz")
  Count,    // compile-time integer that must be given ("iregs=8")
  Choice,   // one word from a fixed list ("bufpolicy=ring")
  Text,     // any non-empty string ("cpppath=/usr/bin/cpp")
  CppArg,   // appended to the preprocessor arguments ("define", "undef", "incdir")
};

struct OptionSpec {
  std::string_view name;
  OptionKind kind;
  bool runtime;                   // run-time (sent to the consumer), else compile-time
  std::string_view defaultValue;  // parsed at construction; empty when unset by default
  std::string_view choices;       // Choice only: '|'-separated words
  // Set before any program is read (the preprocessor's and linker's), so
  // `#pragma D option` may not (illumos's EDT_BADOPTCTX).
  bool commandLineOnly = false;
};

class OptionTable {
 public:
  // libdtrace's wording (dtrace_errmsg for EDT_BADOPTNAME / EDT_BADOPTVAL).
  static constexpr const char* kBadNameMessage = "Invalid option name";
  static constexpr const char* kBadValueMessage = "Invalid value for specified option";
  static constexpr const char* kBadContextMessage = "Option cannot be used from within a D program";
  // EDT_VERSINVAL / EDT_VERSUNDEF, for -x version.
  static constexpr const char* kBadVersionMessage =
      "Version is not properly formatted or is too large";
  static constexpr const char* kUndefinedVersionMessage =
      "Requested version is not supported by compiler";

  OptionTable();  // every option at its default

  // Sets `name` from `value` ("" when the option was given without "=value").
  // Fails with kBadNameMessage or kBadValueMessage, the option unchanged.
  Result<void> set(std::string_view name, std::string_view value);

  bool isSet(std::string_view name) const;      // has a value (given or default)
  uint64_t value(std::string_view name) const;  // the integer value; 0 when unset
  uint64_t size(std::string_view name) const { return value(name); }    // bytes
  uint64_t timeNs(std::string_view name) const { return value(name); }  // nanoseconds
  bool flag(std::string_view name) const { return isSet(name); }
  std::string text(std::string_view name) const;  // Choice/Text value; "" when unset

  // -D/-U/-I style arguments from the define/undef/incdir options, in order.
  const std::vector<std::string>& cppArgs() const { return cppArgs_; }
  const std::vector<std::string>& libDirs() const { return libDirs_; }

  static const std::vector<OptionSpec>& specs();
  static const OptionSpec* find(std::string_view name);

 private:
  struct Value {
    bool set = false;
    uint64_t number = 0;
    std::string text;
  };
  const Value* lookup(std::string_view name) const;

  std::vector<Value> values_;  // parallel to specs()
  std::vector<std::string> cppArgs_;
  std::vector<std::string> libDirs_;
};

// Value parsers shared with anything that reads sizes or times the DTrace way
// (e.g. a "tick-10ms" rate); they fail with OptionTable::kBadValueMessage.
Result<uint64_t> parseOptionSize(std::string_view text);
Result<uint64_t> parseOptionTime(std::string_view text);

}  // namespace dtrace
