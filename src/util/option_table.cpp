#include "util/option_table.h"

#include <strings.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <optional>

#include "util/d_version.h"

namespace dtrace {
namespace {

constexpr uint64_t kNanosPerSecond = 1000000000ULL;

Error badValue() { return Error{OptionTable::kBadValueMessage}; }

// strtoull with base 0 (so 0x10 and 010 work as in libdtrace) over a
// string_view; returns the number of characters consumed, 0 for none.
size_t parseLeadingNumber(std::string_view text, uint64_t& number) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return 0;
  std::string copy(text);
  errno = 0;
  char* end = nullptr;
  number = std::strtoull(copy.c_str(), &end, 0);
  if (errno != 0) return 0;
  return static_cast<size_t>(end - copy.c_str());
}

Result<uint64_t> parseInteger(std::string_view text) {
  uint64_t number = 0;
  size_t used = parseLeadingNumber(text, number);
  if (used == 0 || used != text.size()) return badValue();
  return number;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

bool isChoice(std::string_view choices, std::string_view word) {
  size_t pos = 0;
  while (pos <= choices.size()) {
    size_t bar = choices.find('|', pos);
    if (bar == std::string_view::npos) bar = choices.size();
    if (choices.substr(pos, bar - pos) == word) return true;
    pos = bar + 1;
  }
  return false;
}

// dt_opt_version(): a version D has, in its form.
Result<void> checkVersion(std::string_view text) {
  DVersionError why = DVersionError::Malformed;
  if (parseDVersion(text, &why)) return {};
  return Error{why == DVersionError::Malformed ? OptionTable::kBadVersionMessage
                                               : OptionTable::kUndefinedVersionMessage};
}

// A run-time option's on/off words, case-insensitively; nullopt for others.
std::optional<bool> switchWord(std::string_view value) {
  static const std::pair<const char*, const char*> kWords[] = {
      {"yes", "no"},     {"enable", "disable"}, {"enabled", "disabled"},
      {"true", "false"}, {"on", "off"},         {"set", "unset"},
  };
  auto same = [&](const char* word) { return strcasecmp(std::string(value).c_str(), word) == 0; };
  for (const auto& [positive, negative] : kWords) {
    if (same(positive)) return true;
    if (same(negative)) return false;
  }
  return std::nullopt;
}

// Sorted by name. Defaults are illumos's (the kernel's for run-time options,
// dtrace_ustackframes_default's 20 for ustackframes, and dtrace(1M)'s 4m
// for bufsize and aggsize); maxframes is Oracle's option.
const std::vector<OptionSpec> kSpecs = {
    {"agghist", OptionKind::Runtime, true, "", "", false, true},
    {"aggpack", OptionKind::Runtime, true, "", "", false, true},
    {"aggpercpu", OptionKind::Flag, false, "", ""},
    {"aggrate", OptionKind::Time, true, "1hz", "", false, true},
    {"aggsize", OptionKind::Size, true, "4m", ""},
    {"aggsortkey", OptionKind::Runtime, true, "", "", false, true},
    {"aggsortkeypos", OptionKind::Runtime, true, "", "", false, true},
    {"aggsortpos", OptionKind::Runtime, true, "", "", false, true},
    {"aggsortrev", OptionKind::Runtime, true, "", "", false, true},
    {"aggzoom", OptionKind::Runtime, true, "", "", false, true},
    {"amin", OptionKind::Text, false, "", ""},
    {"argref", OptionKind::Flag, false, "", ""},
    {"bpflog", OptionKind::Runtime, true, "", ""},  // Oracle's: print the verifier's log
    {"bufpolicy", OptionKind::Choice, true, "switch", "ring|fill|switch"},
    {"bufresize", OptionKind::Choice, true, "auto", "auto|manual"},
    {"bufsize", OptionKind::Size, true, "4m", ""},
    {"cleanrate", OptionKind::Time, true, "101hz", ""},
    {"core", OptionKind::Flag, false, "", ""},
    {"cpp", OptionKind::Flag, false, "", ""},
    {"cppargs", OptionKind::CppArg, false, "", "", true},
    {"cpphdrs", OptionKind::Flag, false, "", "", true},
    {"cpppath", OptionKind::Text, false, "cpp", "", true},
    {"cpu", OptionKind::Runtime, true, "", ""},
    {"ctypes", OptionKind::Text, false, "", ""},
    {"debug", OptionKind::Flag, false, "", ""},
    {"defaultargs", OptionKind::Flag, false, "", ""},
    {"define", OptionKind::CppArg, false, "", "-D", true},
    {"demangle", OptionKind::Runtime, true, "1", ""},  // C++ names in stacks and symbols
    {"destructive", OptionKind::Runtime, true, "", ""},
    {"droptags", OptionKind::Flag, false, "", ""},
    {"dtypes", OptionKind::Text, false, "", ""},
    {"dynvarsize", OptionKind::Size, true, "1m", ""},
    {"empty", OptionKind::Flag, false, "", ""},
    {"encoding", OptionKind::Choice, false, "", "ascii|utf8"},
    {"errtags", OptionKind::Flag, false, "", ""},
    {"evaltime", OptionKind::Choice, false, "", "exec|preinit|postinit|main"},
    {"flamegraph", OptionKind::Text, true, "", ""},
    {"flowindent", OptionKind::Runtime, true, "", "", false, true},
    {"grabanon", OptionKind::Runtime, true, "", ""},
    {"incdir", OptionKind::CppArg, false, "", "-I", true},
    {"iregs", OptionKind::Count, false, "", ""},
    {"jstackframes", OptionKind::Runtime, true, "50", ""},
    {"jstackstrsize", OptionKind::Size, true, "512", ""},
    {"kdefs", OptionKind::Flag, false, "", ""},
    {"knodefs", OptionKind::Flag, false, "", ""},
    {"late", OptionKind::Choice, false, "", "dynamic|static"},
    {"lazyload", OptionKind::Runtime, false, "", ""},
    {"ldpath", OptionKind::Text, false, "", "", true},
    {"libdir", OptionKind::Text, false, "", ""},
    {"linkmode", OptionKind::Choice, false, "", "kernel|primary|dynamic|static"},
    {"linktype", OptionKind::Choice, false, "", "elf|dof"},
    {"maxframes", OptionKind::Runtime, true, "", ""},  // unset: the kernel's perf_event_max_stack
    {"metrics", OptionKind::Text, true, "", ""},
    {"metricslabels", OptionKind::Text, true, "", ""},
    {"metricslimit", OptionKind::Count, true, "100000", ""},
    {"nolibs", OptionKind::Flag, false, "", ""},
    {"nspec", OptionKind::Runtime, true, "1", ""},
    {"oformat", OptionKind::Choice, true, "text", "text|json|folded"},
    {"pgmax", OptionKind::Count, false, "", ""},
    {"printsize", OptionKind::Size, true, "", "", false, true},  // Oracle's, dynamic
    {"pspec", OptionKind::Flag, false, "", ""},
    {"quiet", OptionKind::Runtime, true, "", "", false, true},
    {"rawbytes", OptionKind::Runtime, true, "", "", false, true},
    {"scratchsize", OptionKind::Size, false, "2048", ""},  // Oracle's: alloca() space
    {"setenv", OptionKind::EnvEdit, false, "", "", true},
    {"specsize", OptionKind::Size, true, "32k", ""},
    {"stackframes", OptionKind::Runtime, true, "20", ""},
    {"stackindent", OptionKind::Runtime, true, "14", "", false, true},
    // Unset by default: exit() is noticed at once (DTrace checks at 1hz).
    {"statusrate", OptionKind::Time, true, "", ""},
    {"stdc", OptionKind::Choice, false, "", "a|c|s|t", true},
    {"strip", OptionKind::Flag, false, "", ""},
    {"strsize", OptionKind::Size, true, "256", ""},
    {"switchrate", OptionKind::Time, true, "10hz", "", false, true},  // illumos: 1hz
    {"syslibdir", OptionKind::Text, false, "", ""},
    {"temporal", OptionKind::Runtime, true, "", ""},
    {"tree", OptionKind::Count, false, "", ""},
    {"tregs", OptionKind::Count, false, "", ""},
    {"udefs", OptionKind::Flag, false, "", ""},
    {"undef", OptionKind::CppArg, false, "", "-U", true},
    {"unodefs", OptionKind::Flag, false, "", ""},
    {"unsetenv", OptionKind::EnvEdit, false, "", "", true},
    // ustack() through code without frame pointers by its call frame information
    // (cfi), or by frame pointers alone (fp)
    {"unwind", OptionKind::Choice, true, "cfi", "cfi|fp"},
    {"ustackframes", OptionKind::Runtime, true, "20", ""},
    {"verbose", OptionKind::Flag, false, "", ""},
    {"version", OptionKind::Text, false, "", ""},
    {"zdefs", OptionKind::Flag, false, "", ""},
};

}  // namespace

Result<uint64_t> parseOptionSize(std::string_view text) {
  if (text.empty()) return badValue();
  uint64_t multiplier = 1;
  switch (std::tolower(static_cast<unsigned char>(text.back()))) {
    case 't':
      multiplier <<= 10;
      [[fallthrough]];
    case 'g':
      multiplier <<= 10;
      [[fallthrough]];
    case 'm':
      multiplier <<= 10;
      [[fallthrough]];
    case 'k':
      multiplier <<= 10;
      break;
    default:
      break;
  }
  std::string_view digits = multiplier > 1 ? text.substr(0, text.size() - 1) : text;
  Result<uint64_t> number = parseInteger(digits);
  if (!number.ok()) return number;
  if (*number > UINT64_MAX / multiplier || *number * multiplier > static_cast<uint64_t>(INT64_MAX))
    return badValue();
  return *number * multiplier;
}

Result<uint64_t> parseOptionTime(std::string_view text) {
  struct Suffix {
    std::string_view name;
    uint64_t nanos;  // 0 means a frequency (per second)
  };
  static constexpr Suffix kSuffixes[] = {
      {"ns", 1},
      {"nsec", 1},
      {"us", 1000},
      {"usec", 1000},
      {"ms", 1000000},
      {"msec", 1000000},
      {"s", kNanosPerSecond},
      {"sec", kNanosPerSecond},
      {"m", kNanosPerSecond * 60},
      {"min", kNanosPerSecond * 60},
      {"h", kNanosPerSecond * 3600},
      {"hour", kNanosPerSecond * 3600},
      {"d", kNanosPerSecond * 86400},
      {"day", kNanosPerSecond * 86400},
      {"hz", 0},
  };
  uint64_t number = 0;
  size_t used = parseLeadingNumber(text, number);
  if (used == 0) return badValue();
  std::string_view suffix = text.substr(used);
  if (suffix.empty()) return number;  // a bare number is nanoseconds
  for (const Suffix& s : kSuffixes) {
    if (!equalsIgnoreCase(s.name, suffix)) continue;
    if (s.nanos == 0) return number == 0 ? 0 : kNanosPerSecond / number;
    if (number > UINT64_MAX / s.nanos) return badValue();
    return number * s.nanos;
  }
  return badValue();
}

OptionTable::OptionTable() : values_(kSpecs.size()) {
  for (const OptionSpec& spec : kSpecs) {
    if (!spec.defaultValue.empty()) (void)set(spec.name, spec.defaultValue);
  }
}

const std::vector<OptionSpec>& OptionTable::specs() { return kSpecs; }

const OptionSpec* OptionTable::find(std::string_view name) {
  for (const OptionSpec& spec : kSpecs) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

const OptionTable::Value* OptionTable::lookup(std::string_view name) const {
  const OptionSpec* spec = find(name);
  return spec == nullptr ? nullptr : &values_[spec - kSpecs.data()];
}

// dtrace_setopt()'s option functions: `argument` is libdtrace's `arg`,
// absent for "-x name" and present, perhaps empty, for "-x name=value".
Result<void> OptionTable::setArgument(std::string_view name,
                                      std::optional<std::string_view> argument) {
  const OptionSpec* spec = find(name);
  if (spec == nullptr) return Error{kBadNameMessage};
  Value& slot = values_[spec - kSpecs.data()];
  const std::string_view value = argument.value_or(std::string_view());
  Value next;
  next.set = true;
  switch (spec->kind) {
    case OptionKind::Flag:
      // dt_opt_cflags() and its kind take no argument at all, not even "".
      if (argument) return badValue();
      break;
    case OptionKind::Runtime:
      // dt_opt_runtime(): "" unsets; yes/no, enable(d)/disable(d),
      // true/false, on/off, set/unset; else a non-negative number.
      if (argument && value.empty()) {
        next.set = false;
      } else if (argument) {
        if (std::optional<bool> word = switchWord(value)) {
          next.set = *word;
          next.number = *word ? 1 : 0;
          break;
        }
        Result<uint64_t> number = parseInteger(value);
        if (!number.ok()) return number.error();
        next.number = *number;
      }
      break;
    case OptionKind::Size:
      if (!value.empty()) {
        Result<uint64_t> number = parseOptionSize(value);
        if (!number.ok()) return number.error();
        // dt_opt_strsize(): D's string type has a 32-bit size (EOVERFLOW).
        if (name == "strsize" && *number > UINT_MAX) return Error{kOverflowMessage};
        next.number = *number;
      }
      break;
    case OptionKind::Time:
      if (!value.empty()) {
        Result<uint64_t> number = parseOptionTime(value);
        if (!number.ok()) return number.error();
        next.number = *number;
      }
      break;
    case OptionKind::Count: {
      Result<uint64_t> number = parseInteger(value);
      if (!number.ok() || *number > INT_MAX || (name != "pgmax" && *number == 0)) return badValue();
      next.number = *number;
      break;
    }
    case OptionKind::Choice: {
      std::string word(value);
      if (name == "linktype") {
        for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
      if (!isChoice(spec->choices, word)) return badValue();
      next.text = word;
      break;
    }
    case OptionKind::Text:
      if (name == "version") {
        // dt_opt_version(): "" reads as version 0.0 (dt_version_str2num),
        // which D never had.
        if (!argument) return badValue();
        if (value.empty()) return Error{kUndefinedVersionMessage};
        if (Result<void> r = checkVersion(value); !r.ok()) return r.error();
        // dt_reduce(): a version once lowered cannot be raised again.
        if (slot.set && parseDVersion(value) > parseDVersion(slot.text)) {
          return Error{kVersionRaisedMessage};
        }
      } else if (value.empty()) {
        return badValue();
      }
      next.text = std::string(value);
      if (name == "libdir") libDirs_.push_back(next.text);
      break;
    case OptionKind::CppArg:
      if (value.empty()) return badValue();
      next.text = std::string(value);
      if (name == "cppargs") {  // Oracle's: any arguments, split at blanks
        for (size_t at = 0; at < value.size();) {
          const size_t start = value.find_first_not_of(" \t", at);
          if (start == std::string_view::npos) break;
          const size_t end = std::min(value.find_first_of(" \t", start), value.size());
          cppArgs_.emplace_back(value.substr(start, end - start));
          at = end;
        }
      } else {
        cppArgs_.push_back(std::string(spec->choices) + next.text);
      }
      break;
    case OptionKind::EnvEdit: {
      // dt_opt_setenv(): setenv takes NAME[=value]; unsetenv a bare NAME.
      const bool setting = name == "setenv";
      if (!argument || (!setting && value.find('=') != std::string_view::npos)) return badValue();
      next.text = std::string(value);
      environmentEdits_.push_back({setting, next.text});
      break;
    }
  }
  slot = std::move(next);
  return {};
}

Result<void> OptionTable::setWhileTracing(std::string_view name, std::string_view value) {
  // dtrace_setopt(): with dt_active, only compile-time and dynamic
  // run-time options may be set (EDT_ACTIVE).
  const OptionSpec* spec = find(name);
  if (spec != nullptr && spec->runtime && !spec->dynamic) return Error{kActiveMessage};
  return set(name, value);
}

void OptionTable::setFromEnvironment(const std::function<const char*(const char*)>& getenv) {
  for (const OptionSpec& spec : kSpecs) {
    std::string variable = "DTRACE_OPT_";
    for (char c : spec.name) {
      variable += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    if (const char* value = getenv(variable.c_str())) (void)set(spec.name, value);
  }
}

std::vector<std::string> editedEnvironment(std::vector<std::string> base,
                                           const std::vector<EnvironmentEdit>& edits) {
  for (const EnvironmentEdit& edit : edits) {
    const std::string_view name = std::string_view(edit.text).substr(0, edit.text.find('='));
    std::erase_if(base, [&](const std::string& entry) {
      return std::string_view(entry).substr(0, entry.find('=')) == name;
    });
    if (edit.set) base.push_back(edit.text);
  }
  return base;
}

bool OptionTable::isSet(std::string_view name) const {
  const Value* v = lookup(name);
  return v != nullptr && v->set;
}

uint64_t OptionTable::value(std::string_view name) const {
  const Value* v = lookup(name);
  return v != nullptr && v->set ? v->number : 0;
}

std::string OptionTable::text(std::string_view name) const {
  const Value* v = lookup(name);
  return v != nullptr && v->set ? v->text : std::string();
}

}  // namespace dtrace
