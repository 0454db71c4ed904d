// The dtrace(1M) command line: getopt-style parsing exactly as illumos does
// it (bundled flags, attached or separate option arguments, options mixed
// with operands), the usage text, and the options a script's "#!" line
// carries.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "util/result.h"

namespace dtrace {
class OptionTable;
}

namespace dtrace::cli {

struct ProgramSource {
  enum class Kind {
    ProbeDescription,  // -n
    ScriptFile,        // -s
    ProviderName,      // -P
    ModuleName,        // -m
    FunctionName,      // -f
    ProbeId,           // -i
  } kind;
  std::string text;  // the -n text, the script path, ...
};

// One option the command line sets, in argv order: -x name[=value] and
// the letters that are options (-b bufsize, -q quiet, -D define, ...), as
// dtrace(1M)'s second pass hands them to dtrace_setopt().
struct OptionSetting {
  std::string name;                  // the option: "bufsize", "quiet", "define"
  std::optional<std::string> value;  // absent for "-x name" and for -q, -w, -F ...
  std::string given;                 // as errors name it: "-b 4m", "-x name", "-q"
  bool operator==(const OptionSetting&) const = default;
};

struct CommandLine {
  std::vector<ProgramSource> sources;  // in command-line order
  bool quiet = false, list = false, verbose = false, compileOnly = false, showProgram = false,
       allowZeroMatches = false, destructive = false, runCpp = false, printVersion = false,
       flowIndent = false, showIncludes = false /*-H*/;
  bool generateHeader = false;  // -h: a C header for USDT providers (dtrace refuses it)
  bool generateObject = false;  // -G: an ELF object with USDT providers (dtrace refuses it)
  bool claimAnonymous = false;  // -a: there is no anonymous state on Linux; accepted, no effect
  int dataModel = 0;            // 32 or 64 from -32/-64 (the last wins); 0 when not given
  std::vector<OptionSetting> settings;    // -x, -b, -q, -D, -I, -U, -L, -X, ... in order
  std::string outputFile;                 // -o
  std::vector<std::string> commands;      // -c (repeatable)
  std::vector<int> pids;                  // -p (repeatable)
  std::optional<std::string> invalidPid;  // the first -p argument that is no pid
  std::vector<std::string> macroArgs;     // operands after the options: $1, $2, ...
};

// What to print on stderr (complete, newline-terminated: the getopt complaint
// followed by the usage text, as illumos does) and the exit status to use
// (2, or 1 for the few errors dtrace reports as fatal rather than as usage).
struct UsageError {
  std::string message;
  int exitStatus = 2;
};

std::variant<CommandLine, UsageError> parseCommandLine(int argc, char** argv);
std::variant<CommandLine, UsageError> parseCommandLine(const std::vector<std::string>& args);

// The illumos usage message; argv0 is reduced to its basename as dtrace does.
std::string usageText(const char* argv0);

// The option words on a script's first line when it is "#!" naming dtrace
// ("#!/usr/sbin/dtrace -qs" gives {"-q"}; "#!/usr/bin/env dtrace -x
// bufsize=1m -s" gives {"-x", "bufsize=1m"}), without the trailing -s.
// Empty when the first line is not such a line.
std::vector<std::string> shebangOptions(std::string_view scriptText);

// Applies the command line's settings to `options` in argv order, as
// dtrace(1M)'s second pass does, then checks the -p arguments (its third
// pass). On failure the message is dtrace's, without the leading
// "dtrace: " (e.g. "failed to set -x nosuch: Invalid option name", "invalid
// pid: 12x"); dtrace exits with status 1 for it.
Result<void> applyOptions(const CommandLine& commandLine, OptionTable& options);

// Sets one -x or `#pragma D option` setting (no value for "-x name"). Like
// OptionTable::setArgument, but strsize needs a value.
Result<void> setOption(OptionTable& options, std::string_view name,
                       std::optional<std::string_view> value);

}  // namespace dtrace::cli
