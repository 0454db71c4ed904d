// DTrace's compile-time and run-time options (-x name[=value], #pragma D
// option) in one table: name, kind, default and parser, as libdtrace has
// them, with the same value syntax (sizes with k/m/g/t, times with
// ns/us/ms/s/.../hz) and the same error texts.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
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
  EnvEdit,  // an edit of -c commands' environment ("setenv=NAME=value", "unsetenv=NAME")
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
  // A dynamic run-time option (illumos's _dtrace_drtoptions): setopt() may
  // change it while tracing, where the other run-time options are fixed.
  bool dynamic = false;
};

// One setenv or unsetenv option, in the order given.
struct EnvironmentEdit {
  bool set;          // setenv, else unsetenv
  std::string text;  // "NAME=value" or "NAME" (setenv), "NAME" (unsetenv)
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
  // EDT_VERSREDUCED: a version above one set earlier.
  static constexpr const char* kVersionRaisedMessage =
      "Requested version conflicts with earlier setting";
  // EOVERFLOW, for a strsize beyond D's 32-bit string sizes.
  static constexpr const char* kOverflowMessage = "Value too large for defined data type";
  // EDT_ACTIVE: setopt() of a run-time option that is not dynamic.
  static constexpr const char* kActiveMessage = "Operation illegal when tracing is active";

  OptionTable();  // every option at its default

  // Sets `name` as libdtrace's dtrace_setopt() does: `set(name)` is
  // "-x name" (no value), `set(name, value)` is "-x name=value", where an
  // empty value is still a value (it unsets a run-time switch, and a
  // compile-time flag refuses it). Fails with kBadNameMessage or
  // kBadValueMessage (or the version messages), the option unchanged.
  Result<void> set(std::string_view name) { return setArgument(name, std::nullopt); }
  Result<void> set(std::string_view name, std::string_view value) {
    return setArgument(name, value);
  }
  // The same with libdtrace's `arg`: nullopt for none.
  Result<void> setArgument(std::string_view name, std::optional<std::string_view> argument);

  // setopt() while tracing (dtrace_setopt with dt_active): a run-time
  // option that is not dynamic fails with kActiveMessage.
  Result<void> setWhileTracing(std::string_view name, std::string_view value);

  // DTRACE_OPT_<NAME> environment variables (Oracle's dtrace_setoptenv):
  // each one present sets its option; values an option refuses are
  // ignored, as Oracle's dtrace(8) ignores them. `getenv` is the lookup.
  void setFromEnvironment(const std::function<const char*(const char*)>& getenv);

  bool isSet(std::string_view name) const;      // has a value (given or default)
  uint64_t value(std::string_view name) const;  // the integer value; 0 when unset
  uint64_t size(std::string_view name) const { return value(name); }    // bytes
  uint64_t timeNs(std::string_view name) const { return value(name); }  // nanoseconds
  bool flag(std::string_view name) const { return isSet(name); }
  std::string text(std::string_view name) const;  // Choice/Text value; "" when unset

  // -D/-U/-I style arguments from the define/undef/incdir options, in order.
  const std::vector<std::string>& cppArgs() const { return cppArgs_; }
  const std::vector<std::string>& libDirs() const { return libDirs_; }
  // setenv/unsetenv, in order.
  const std::vector<EnvironmentEdit>& environmentEdits() const { return environmentEdits_; }

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
  std::vector<EnvironmentEdit> environmentEdits_;
};

// The environment a -c command starts with: `base` ("NAME=value" entries)
// with the edits applied in order, as libdtrace's dt_opt_setenv edits
// dt_proc_env (an entry is replaced by name; unsetenv removes it).
std::vector<std::string> editedEnvironment(std::vector<std::string> base,
                                           const std::vector<EnvironmentEdit>& edits);

// Value parsers shared with anything that reads sizes or times the DTrace way
// (e.g. a "tick-10ms" rate); they fail with OptionTable::kBadValueMessage.
Result<uint64_t> parseOptionSize(std::string_view text);
Result<uint64_t> parseOptionTime(std::string_view text);

}  // namespace dtrace
