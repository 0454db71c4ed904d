#include "util/command_line.h"

#include <cerrno>
#include <cstdlib>
#include <optional>

#include "util/option_table.h"

namespace dtrace::cli {
namespace {

// The illumos option string: a letter followed by ':' takes an argument.
// "-32" and "-64" are the options '3' and '6' with the arguments "2" and "4".
constexpr std::string_view kOptionString = "3:6:aAb:Bc:CD:ef:FGhHi:I:lL:m:n:o:p:P:qs:SU:vVwx:X:Z";

// Option letters whose argument is D text or a command line, where spaces
// belong to the argument rather than separating words.
constexpr std::string_view kTextArgumentLetters = "nPmfic";

constexpr std::string_view kWhitespace = " \t\n\r\f\v";

bool isOptionLetter(char c) { return c != ':' && kOptionString.find(c) != std::string_view::npos; }

bool takesArgument(char c) {
  size_t at = kOptionString.find(c);
  return c != ':' && at != std::string_view::npos && at + 1 < kOptionString.size() &&
         kOptionString[at + 1] == ':';
}

std::string programName(const char* argv0) {
  std::string_view name = argv0 != nullptr && *argv0 != '\0' ? argv0 : "dtrace";
  while (name.size() > 1 && name.back() == '/') name.remove_suffix(1);
  size_t slash = name.rfind('/');
  if (slash != std::string_view::npos && slash + 1 < name.size()) name.remove_prefix(slash + 1);
  return std::string(name);
}

std::vector<std::string> splitWords(std::string_view text) {
  std::vector<std::string> words;
  size_t pos = 0;
  while (true) {
    size_t begin = text.find_first_not_of(kWhitespace, pos);
    if (begin == std::string_view::npos) break;
    size_t end = text.find_first_of(kWhitespace, begin);
    if (end == std::string_view::npos) end = text.size();
    words.emplace_back(text.substr(begin, end - begin));
    pos = end;
  }
  return words;
}

// Linux hands everything after the interpreter on a "#!" line to dtrace as a
// single argument ("-q -s"). Split it into words unless it is one option
// whose attached argument legitimately holds spaces ("-nBEGIN { exit(0); }").
bool looksLikeJoinedInterpreterOptions(std::string_view arg) {
  if (arg.size() < 2 || arg[0] != '-' || arg.find_first_of(kWhitespace) == std::string_view::npos)
    return false;
  for (size_t i = 1; i < arg.size(); i++) {
    char c = arg[i];
    if (kWhitespace.find(c) != std::string_view::npos) return true;
    if (takesArgument(c)) {
      bool attached = i + 1 < arg.size() && kWhitespace.find(arg[i + 1]) == std::string_view::npos;
      return !(attached && kTextArgumentLetters.find(c) != std::string_view::npos);
    }
  }
  return true;
}

std::string modeConflictText(const std::string& pname) {
  return pname + ": only one of the [-AGhlV] options can be specified at a time\n";
}

// The parse proper: getopt complaints first, then mode conflicts, as
// illumos dtrace finds them; bad option values and process ids come later,
// from applyOptions().
class Parser {
 public:
  explicit Parser(std::vector<std::string> args) : args_(std::move(args)) {
    pname_ = programName(args_.empty() ? nullptr : args_[0].c_str());
  }

  std::variant<CommandLine, UsageError> run() {
    if (args_.size() <= 1) return UsageError{usageText(pname_.c_str()), 2};
    size_t n = args_.size();
    for (optind_ = 1; optind_ < n; optind_++) {
      while (true) {
        std::optional<UsageError> error;
        int c = nextOption(error);
        if (error) return *error;
        if (c < 0) break;
        handle(static_cast<char>(c));
        if (getoptError_) return *getoptError_;
      }
      if (optind_ < n) cl_.macroArgs.push_back(args_[optind_]);
    }
    if (modes_ > 1) return UsageError{modeConflictText(pname_), 2};
    if (anonymousRequested_) {
      return UsageError{pname_ + ": anonymous tracing (-A) is not supported on Linux\n", 2};
    }
    return std::move(cl_);
  }

 private:
  // Solaris getopt(3C): returns the next option letter, or -1 at the first
  // operand or after "--"; sets optarg_ for letters that take an argument.
  int nextOption(std::optional<UsageError>& error) {
    size_t n = args_.size();
    if (sp_ == 1) {
      if (optind_ >= n || args_[optind_].size() < 2 || args_[optind_][0] != '-') return -1;
      if (args_[optind_] == "--") {
        optind_++;
        return -1;
      }
    }
    const std::string& arg = args_[optind_];
    char c = arg[sp_];
    if (!isOptionLetter(c)) {
      error = UsageError{
          pname_ + ": illegal option -- " + std::string(1, c) + "\n" + usageText(pname_.c_str()),
          2};
      return -1;
    }
    optarg_.clear();
    if (takesArgument(c)) {
      if (sp_ + 1 < arg.size()) {
        optarg_ = arg.substr(sp_ + 1);
        optind_++;
      } else if (optind_ + 1 >= n) {
        error = UsageError{pname_ + ": option requires an argument -- " + std::string(1, c) + "\n" +
                               usageText(pname_.c_str()),
                           2};
        return -1;
      } else {
        optarg_ = args_[optind_ + 1];
        optind_ += 2;
      }
      sp_ = 1;
    } else if (++sp_ >= arg.size()) {
      sp_ = 1;
      optind_++;
    }
    return c;
  }

  void addSource(ProgramSource::Kind kind) { cl_.sources.push_back({kind, optarg_}); }

  // An option letter's setting; `what` names it in errors ("-b 4m", "-q").
  void setting(std::string name, std::optional<std::string> value, std::string what) {
    cl_.settings.push_back({std::move(name), std::move(value), std::move(what)});
  }

  // -32 or -64.
  void dataModel(char c) {
    if (optarg_ != (c == '3' ? "2" : "4")) {
      getoptError_ = UsageError{pname_ + ": illegal option -- " + std::string(1, c) + optarg_ +
                                    "\n" + usageText(pname_.c_str()),
                                2};
      return;
    }
    cl_.dataModel = c == '3' ? 32 : 64;
  }

  // -p PID: the first invalid one is reported once options are read.
  void grabPid() {
    errno = 0;
    char* end = nullptr;
    long pid = std::strtol(optarg_.c_str(), &end, 10);
    if (errno != 0 || optarg_.empty() || *end != '\0' || pid <= 0 || pid > INT32_MAX) {
      if (!cl_.invalidPid) cl_.invalidPid = optarg_;
    } else {
      cl_.pids.push_back(static_cast<int>(pid));
    }
  }

  // -x name[=value]: "-x name" has no value, "-x name=" an empty one
  // (dtrace.c splits at '=').
  void option() {
    const size_t eq = optarg_.find('=');
    std::string name = optarg_.substr(0, eq);
    std::optional<std::string> value;
    if (eq != std::string::npos) value = optarg_.substr(eq + 1);
    setting(name, std::move(value), "-x " + name);
  }

  void handle(char c) {
    using Kind = ProgramSource::Kind;
    switch (c) {
      case '3':
      case '6':
        dataModel(c);
        break;
      case 'a':
        cl_.claimAnonymous = true;
        setting("grabanon", std::nullopt, "-a");
        break;
      case 'A':
        anonymousRequested_ = true;
        modes_++;
        break;
      case 'b':
        setting("bufsize", optarg_, "-b " + optarg_);
        break;
      case 'B':
        break;  // illumos: suppress output through the buffered handler; no effect here
      case 'c':
        cl_.commands.push_back(optarg_);
        break;
      case 'C':
        cl_.runCpp = true;
        setting("cpp", std::nullopt, "-C");
        break;
      case 'D':
        setting("define", optarg_, "-D " + optarg_);
        break;
      case 'e':
        cl_.compileOnly = true;
        break;
      case 'f':
        addSource(Kind::FunctionName);
        break;
      case 'F':
        cl_.flowIndent = true;
        setting("flowindent", std::nullopt, "-F");
        break;
      case 'G':
        cl_.generateObject = true;
        modes_++;
        break;
      case 'h':
        cl_.generateHeader = true;
        modes_++;
        break;
      case 'H':
        cl_.showIncludes = true;
        setting("cpphdrs", std::nullopt, "-H");
        break;
      case 'i':
        addSource(Kind::ProbeId);
        break;
      case 'I':
        setting("incdir", optarg_, "-I " + optarg_);
        break;
      case 'l':
        cl_.list = true;
        modes_++;
        break;
      case 'L':
        setting("libdir", optarg_, "-L " + optarg_);
        break;
      case 'm':
        addSource(Kind::ModuleName);
        break;
      case 'n':
        addSource(Kind::ProbeDescription);
        break;
      case 'o':
        cl_.outputFile = optarg_;
        break;
      case 'p':
        grabPid();
        break;
      case 'P':
        addSource(Kind::ProviderName);
        break;
      case 'q':
        cl_.quiet = true;
        setting("quiet", std::nullopt, "-q");
        break;
      case 's':
        addSource(Kind::ScriptFile);
        break;
      case 'S':
        cl_.showProgram = true;
        break;
      case 'U':
        setting("undef", optarg_, "-U " + optarg_);
        break;
      case 'v':
        cl_.verbose = true;
        break;
      case 'V':
        cl_.printVersion = true;
        modes_++;
        break;
      case 'w':
        cl_.destructive = true;
        setting("destructive", std::nullopt, "-w");
        break;
      case 'x':
        option();
        break;
      case 'X':
        setting("stdc", optarg_, "-X " + optarg_);
        break;
      case 'Z':
        cl_.allowZeroMatches = true;
        setting("zdefs", std::nullopt, "-Z");
        break;
      default:
        break;
    }
  }

  std::vector<std::string> args_;
  std::string pname_;
  CommandLine cl_;
  size_t optind_ = 1;
  size_t sp_ = 1;
  std::string optarg_;
  int modes_ = 0;
  bool anonymousRequested_ = false;
  std::optional<UsageError> getoptError_;
};

}  // namespace

std::variant<CommandLine, UsageError> parseCommandLine(const std::vector<std::string>& args) {
  std::vector<std::string> words;
  words.reserve(args.size() + 4);
  for (size_t i = 0; i < args.size(); i++) {
    if (i == 1 && looksLikeJoinedInterpreterOptions(args[i])) {
      for (std::string& word : splitWords(args[i])) words.push_back(std::move(word));
    } else {
      words.push_back(args[i]);
    }
  }
  return Parser(std::move(words)).run();
}

std::variant<CommandLine, UsageError> parseCommandLine(int argc, char** argv) {
  std::vector<std::string> args;
  args.reserve(argc > 0 ? argc : 0);
  for (int i = 0; i < argc; i++) args.emplace_back(argv[i] != nullptr ? argv[i] : "");
  return parseCommandLine(args);
}

std::string usageText(const char* argv0) {
  const std::string pname = programName(argv0);
  const std::string predact = "[[ predicate ] action ]";
  std::string text;
  text += "Usage: " + pname + " [-32|-64] [-aACeFGhHlqSvVwZ] [-b bufsz] [-c cmd] [-D name[=def]]\n";
  text += "\t[-I path] [-L path] [-o output] [-p pid] [-s script] [-U name]\n";
  text += "\t[-x opt[=val]] [-X a|c|s|t]\n\n";
  text += "\t[-P provider " + predact + "]\n";
  text += "\t[-m [ provider: ] module " + predact + "]\n";
  text += "\t[-f [[ provider: ] module: ] func " + predact + "]\n";
  text += "\t[-n [[[ provider: ] module: ] func: ] name " + predact + "]\n";
  text += "\t[-i probe-id " + predact + "] [ args ... ]\n\n";
  text += "\tpredicate -> '/' D-expression '/'\n";
  text += "\t   action -> '{' D-statements '}'\n";
  text +=
      "\n"
      "\t-32 generate 32-bit D programs and ELF files\n"
      "\t-64 generate 64-bit D programs and ELF files\n\n"
      "\t-a  claim anonymous tracing state\n"
      "\t-A  generate driver.conf(4) directives for anonymous tracing\n"
      "\t-b  set trace buffer size\n"
      "\t-c  run specified command and exit upon its completion\n"
      "\t-C  run cpp(1) preprocessor on script files\n"
      "\t-D  define symbol when invoking preprocessor\n"
      "\t-e  exit after compiling request but prior to enabling probes\n"
      "\t-f  enable or list probes matching the specified function name\n"
      "\t-F  coalesce trace output by function\n"
      "\t-G  generate an ELF file containing embedded dtrace program\n"
      "\t-h  generate a header file with definitions for static probes\n"
      "\t-H  print included files when invoking preprocessor\n"
      "\t-i  enable or list probes matching the specified probe id\n"
      "\t-I  add include directory to preprocessor search path\n"
      "\t-l  list probes matching specified criteria\n"
      "\t-L  add library directory to library search path\n"
      "\t-m  enable or list probes matching the specified module name\n"
      "\t-n  enable or list probes matching the specified probe name\n"
      "\t-o  set output file\n"
      "\t-p  grab specified process-ID and cache its symbol tables\n"
      "\t-P  enable or list probes matching the specified provider name\n"
      "\t-q  set quiet mode (only output explicitly traced data)\n"
      "\t-s  enable or list probes according to the specified D script\n"
      "\t-S  print D compiler intermediate code\n"
      "\t-U  undefine symbol when invoking preprocessor\n"
      "\t-v  set verbose mode (report stability attributes, arguments)\n"
      "\t-V  report DTrace API version\n"
      "\t-w  permit destructive actions\n"
      "\t-x  enable or modify compiler and tracing options\n"
      "\t-X  specify ISO C conformance settings for preprocessor\n"
      "\t-Z  permit probe descriptions that match zero probes\n";
  return text;
}

std::vector<std::string> shebangOptions(std::string_view scriptText) {
  if (scriptText.substr(0, 2) != "#!") return {};
  size_t newline = scriptText.find('\n');
  std::string_view line =
      scriptText.substr(2, newline == std::string_view::npos ? newline : newline - 2);
  std::vector<std::string> words = splitWords(line);
  if (words.empty()) return {};

  size_t at = 0;
  if (programName(words[0].c_str()) == "env") {
    // Skip env's own options (-S, -i) and NAME=VALUE assignments.
    for (at = 1; at < words.size(); at++) {
      const std::string& w = words[at];
      if (w[0] != '-' && w.find('=') == std::string::npos) break;
    }
    if (at == words.size()) return {};
  }
  if (programName(words[at].c_str()) != "dtrace") return {};
  std::vector<std::string> options(words.begin() + at + 1, words.end());

  // The last word names the script (-s, or a bundle ending in s such as -qs):
  // the script is already being read, so drop it and keep the rest.
  if (!options.empty()) {
    std::string& last = options.back();
    if (last == "-s") {
      options.pop_back();
    } else if (last.size() > 2 && last[0] == '-' && last.back() == 's') {
      bool bundle = true;
      for (size_t i = 1; i + 1 < last.size(); i++) {
        if (!isOptionLetter(last[i]) || takesArgument(last[i])) bundle = false;
      }
      if (bundle) last.pop_back();
    }
  }
  return options;
}

Result<void> setOption(OptionTable& options, std::string_view name,
                       std::optional<std::string_view> value) {
  if (name == "strsize" && !value && OptionTable::find(name) != nullptr) {
    return Error{OptionTable::kBadValueMessage};
  }
  return options.setArgument(name, value);
}

Result<void> applyOptions(const CommandLine& commandLine, OptionTable& options) {
  for (const OptionSetting& s : commandLine.settings) {
    Result<void> r = setOption(options, s.name,
                               s.value ? std::optional<std::string_view>(*s.value) : std::nullopt);
    if (!r.ok()) return Error{"failed to set " + s.given + ": " + r.error().message};
  }
  if (commandLine.invalidPid) return Error{"invalid pid: " + *commandLine.invalidPid};
  return {};
}

}  // namespace dtrace::cli
