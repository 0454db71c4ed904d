// dtrace(1M): option handling only; the work happens in the library: the
// compiler, the enabled program and the work loop (src/driver), wired here.
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include "bpf/attach.h"
#include "bpf/privileges.h"
#include "driver/compiler.h"
#include "driver/program.h"
#include "driver/stability_report.h"
#include "driver/work_loop.h"
#include "generate_mode.h"
#include "list_mode.h"
#include "options.h"
#include "parse/parser.h"
#include "proc/target.h"

namespace {

using namespace dtrace;

constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

int fail(const std::string& message, int status = kExitError) {
  std::fprintf(stderr, "dtrace: %s\n", message.c_str());
  return status;
}

bool readFile(const std::string& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *text = ss.str();
  return true;
}

// dtrace(1M) compiles a -P, -m or -f argument (a whole program, predicates
// and actions included) with its descriptions naming providers, modules or
// functions; -n and -i name probes (or, as numbers, probe IDs).
parse::ProbeSpecContext probeSpecContextFor(cli::ProgramSource::Kind kind) {
  switch (kind) {
    case cli::ProgramSource::Kind::ProviderName:
      return parse::ProbeSpecContext::Provider;
    case cli::ProgramSource::Kind::ModuleName:
      return parse::ProbeSpecContext::Module;
    case cli::ProgramSource::Kind::FunctionName:
      return parse::ProbeSpecContext::Function;
    default:
      return parse::ProbeSpecContext::Name;
  }
}

// dtrace's go(): a buffer the kernel could not allocate at the requested
// size was lowered, and dtrace says so even with -q ("buffer size lowered
// to 512m", or the exact byte count when it is not a whole k/m/g/t).
void reportLoweredSize(const char* what, uint64_t requested, uint64_t granted) {
  if (granted == 0 || granted >= requested) return;
  int unit = 0;
  while (unit < 6 && (granted >> (10 * (unit + 1))) != 0) unit++;
  if ((granted & ((uint64_t{1} << (10 * unit)) - 1)) == 0) {
    std::fprintf(stderr, "dtrace: %s lowered to %llu%c\n", what,
                 static_cast<unsigned long long>(granted >> (10 * unit)), " kmgtpe"[unit]);
  } else {
    std::fprintf(stderr, "dtrace: %s lowered to %llu bytes\n", what,
                 static_cast<unsigned long long>(granted));
  }
}

// go()'s notice of a rate the kernel changed: "status rate increased to
// once every 10 seconds", "cleaning rate reduced to 5000 hz".
void reportChangedRate(const char* what, uint64_t requested, uint64_t granted) {
  constexpr uint64_t kSecond = 1000000000;
  if (granted == 0 || granted == requested) return;
  const char* direction = granted > requested ? "reduced" : "increased";
  if (granted <= kSecond && kSecond % granted == 0) {
    std::fprintf(stderr, "dtrace: %s %s to %llu hz\n", what, direction,
                 static_cast<unsigned long long>(kSecond / granted));
  } else if (granted % kSecond == 0) {
    std::fprintf(stderr, "dtrace: %s %s to once every %llu seconds\n", what, direction,
                 static_cast<unsigned long long>(granted / kSecond));
  } else {
    std::fprintf(stderr, "dtrace: %s %s to once every %llu nanoseconds\n", what, direction,
                 static_cast<unsigned long long>(granted));
  }
}

// -x core (illumos's dt_opt_core): dtrace ends with abort() and a core
// file, whichever way it exits, for debugging dtrace itself.
void forceCoreDump() {
  const char message[] = "libdtrace DEBUG: [ forcing coredump ]\n";
  ssize_t ignored = write(STDERR_FILENO, message, sizeof message - 1);
  (void)ignored;
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(SIGABRT, &dfl, nullptr);
  rlimit unlimited{RLIM_INFINITY, RLIM_INFINITY};
  if (setrlimit(RLIMIT_CORE, &unlimited) != 0 && getrlimit(RLIMIT_CORE, &unlimited) == 0) {
    unlimited.rlim_cur = unlimited.rlim_max;
    setrlimit(RLIMIT_CORE, &unlimited);
  }
  sigset_t abrt;
  sigemptyset(&abrt);
  sigaddset(&abrt, SIGABRT);
  sigprocmask(SIG_UNBLOCK, &abrt, nullptr);
  std::abort();
}

void armCoreDump(const OptionTable& options) {
  static bool armed = false;
  if (options.flag("core") && !armed) armed = std::atexit(forceCoreDump) == 0;
}

// The processes of -c are held before they exec; a provider that reads a
// process's objects (pid, USDT) has it run to its entry point first.
class TargetHook final : public providers::ProcessHook {
 public:
  explicit TargetHook(std::vector<proc::Target>& targets) : targets_(targets) {}
  Result<void> prepare(int pid) override {
    for (proc::Target& t : targets_) {
      if (t.pid() == pid) return t.holdAtEntry();
    }
    return {};
  }

 private:
  std::vector<proc::Target>& targets_;
};

}  // namespace

int main(int argc, char** argv) {
  auto parsed = cli::parseCommandLine(argc, argv);
  if (auto* usage = std::get_if<cli::UsageError>(&parsed)) {
    std::fputs(usage->message.c_str(), stderr);
    return usage->exitStatus;
  }
  cli::CommandLine cl = std::get<cli::CommandLine>(std::move(parsed));
  if (cl.printVersion) {
    std::printf("dtrace: Sun D 1.13 (dtrace for Linux 0.1)\n");
    return 0;
  }
  const bool generating = cl.generateHeader || cl.generateObject;
  // libdtrace would compile ILP32 programs, but every kernel type it then
  // looks up is LP64 (EDT_DATAMODEL); x86-64 Linux has no 32-bit kernel.
  // -h and -G trace nothing: -32 chooses the object they write.
  if (cl.dataModel == 32 && !generating) {
    return fail(
        "failed to initialize dtrace: Module and program data models do not match "
        "(-32: the kernel is 64-bit)");
  }

  // Read the scripts first: a `#!` line naming dtrace may carry options.
  std::vector<driver::SourceUnit> units;
  for (const auto& source : cl.sources) {
    driver::SourceUnit unit;
    if (source.kind == cli::ProgramSource::Kind::ScriptFile) {
      unit.isScript = true;
      unit.name = source.text;
      if (!readFile(source.text, &unit.text)) {
        return fail("failed to open " + source.text + ": " + std::strerror(errno));
      }
      std::vector<std::string> extra = cli::shebangOptions(unit.text);
      if (!extra.empty()) {
        extra.insert(extra.begin(), "dtrace");
        auto again = cli::parseCommandLine(extra);
        if (auto* more = std::get_if<cli::CommandLine>(&again)) {
          // The "#!" line's options come first, as in the argv the kernel builds.
          cl.settings.insert(cl.settings.begin(), more->settings.begin(), more->settings.end());
          cl.allowZeroMatches = cl.allowZeroMatches || more->allowZeroMatches;
        }
      }
    } else {
      unit.name = source.text;
      unit.text = source.text;
      unit.probeSpecContext = probeSpecContextFor(source.kind);
    }
    units.push_back(std::move(unit));
  }

  OptionTable options;
  // As Oracle's dtrace(8): DTRACE_OPT_<NAME> variables before the command line.
  options.setFromEnvironment([](const char* name) { return std::getenv(name); });
  if (auto r = cli::applyOptions(cl, options); !r) return fail(r.error().message);
  armCoreDump(options);

  // -C and -H, or -x cpp and -x cpphdrs.
  if (options.flag("cpp")) {
    for (auto& unit : units) {
      if (!unit.isScript) continue;
      auto out = preprocess(unit.text, unit.name, options.cppArgs(), options.flag("cpphdrs"),
                            options.text("cpppath"), options.text("stdc"),
                            parseDVersion(options.text("version")).value_or(kLatestDVersion));
      if (!out) {
        // cpp's own diagnostics, on lines of their own before dtrace's.
        const std::string& diagnostics = out.error().message;
        if (diagnostics != kPreprocessorFailedMessage) {
          std::fputs(diagnostics.c_str(), stderr);
          if (!diagnostics.empty() && diagnostics.back() != '\n') std::fputc('\n', stderr);
        }
        return fail("failed to compile script " + unit.name + ": " + kPreprocessorFailedMessage);
      }
      unit.text = std::move(*out);
    }
  }

  // -h and -G write a file from the provider definitions; nothing is traced.
  if (generating) return runProbeGeneration(cl, units, options);

  driver::CompilerConfig config;
  config.quiet = options.flag("quiet");
  // -x verbose is -S (both are libdtrace's DTRACE_C_DIFV).
  config.showProgram = cl.showProgram || options.flag("verbose");
  config.allowZeroMatches = cl.allowZeroMatches || options.flag("zdefs");
  config.errtags = options.flag("errtags");
  driver::WorkLoopConfig workConfig;

  // As dtrace(1M) fails to open DTrace without privileges (-e compiles
  // without them): one line, before anything is created.
  (void)bpf::prepareProcess();
  if (!cl.compileOnly && !bpf::hasTracingPrivileges()) {
    return fail(
        "failed to initialize dtrace: DTrace requires additional privileges "
        "(run as root, or with CAP_BPF and CAP_PERFMON)",
        kExitUsage);
  }

  FILE* out = stdout;
  if (!cl.outputFile.empty()) {
    out = std::fopen(cl.outputFile.c_str(), "a");
    if (!out)
      return fail("failed to open output file '" + cl.outputFile + "': " + std::strerror(errno));
  }
  workConfig.out = out;
  if (!cl.outputFile.empty()) workConfig.outName = cl.outputFile;
  for (int i = 0; i < argc; i++) workConfig.commandLine += (i ? " " : "") + std::string(argv[i]);

  // Targets exist before compiling: $target names the first one.
  std::vector<proc::Target> targets;
  // -x setenv / unsetenv edit the environment -c commands start with.
  std::optional<std::vector<std::string>> environment;
  if (!options.environmentEdits().empty()) {
    std::vector<std::string> base;
    for (char** e = environ; *e != nullptr; e++) base.emplace_back(*e);
    environment = editedEnvironment(std::move(base), options.environmentEdits());
  }
  for (const auto& command : cl.commands) {
    auto t = proc::Target::spawn(command, environment ? &*environment : nullptr);
    if (!t) return fail(t.error().message);
    targets.push_back(std::move(*t));
  }
  for (int pid : cl.pids) {
    auto t = proc::Target::grab(pid);
    if (!t) return fail(t.error().message);
    targets.push_back(std::move(*t));
  }

  sema::MacroTable& macros = config.macros;
  // $0 is argv[0]; a script's compile sees its own name instead.
  macros.args.push_back(argv[0]);
  for (const auto& a : cl.macroArgs) macros.args.push_back(a);
  macros.named["pid"] = std::to_string(getpid());
  macros.named["ppid"] = std::to_string(getppid());
  macros.named["uid"] = std::to_string(getuid());
  macros.named["gid"] = std::to_string(getgid());
  macros.named["euid"] = std::to_string(geteuid());
  macros.named["egid"] = std::to_string(getegid());
  macros.named["sid"] = std::to_string(getsid(0));
  macros.named["pgid"] = std::to_string(getpgid(0));
  // Linux has no projects or tasks: 0, as psinfo_t's pr_projid and pr_taskid.
  macros.named["projid"] = "0";
  macros.named["taskid"] = "0";
  if (char cwd[4096]; getcwd(cwd, sizeof cwd)) macros.named["cwd"] = cwd;
  macros.defaultArgs = options.flag("defaultargs");
  // $target is always defined: 0 without -c or -p, as in DTrace.
  macros.named["target"] = targets.empty() ? "0" : std::to_string(targets.front().pid());

  driver::Compiler compiler(std::move(config), options);
  TargetHook targetHook(targets);
  compiler.catalog().setProcessHook(&targetHook);
  if (cl.list) return listProbes(compiler, units, cl.verbose);
  // dtrace(1M)'s main(): -e with nothing to compile is done; otherwise no
  // program is "no probes specified" (usage is for no arguments at all).
  if (units.empty()) {
    if (cl.compileOnly) return 0;
    if (!cl.allowZeroMatches || targets.empty()) return fail("no probes specified");
  }

  // How dtrace(1M) names a program in messages: a -n description cut
  // before its predicate or actions.
  auto programName = [&](const driver::SourceUnit& unit) {
    std::string n = unit.name;
    if (!unit.isScript) n = n.substr(0, std::min(n.find_first_of("{/;"), n.size()));
    return n;
  };
  std::vector<size_t> matched(units.size());
  std::vector<std::string> stabilityReports(units.size());  // -v
  driver::Program program(compiler, options);
  for (size_t i = 0; i < units.size(); i++) {
    auto compiled = compiler.compile(units[i]);
    armCoreDump(options);  // #pragma D option core
    if (!compiled) return fail(compiled.error().message);
    matched[i] = program.enable(*compiled);
    if (cl.verbose) {
      stabilityReports[i] =
          driver::formatStabilityReport(units[i].isScript ? "script" : "description",
                                        programName(units[i]), compiled->clauses, cl.compileOnly);
    }
  }
  if (compiler.showsProgram()) program.showVariableTables();
  // -e compiles completely, as dtrace_program_strcompile() generates DIF:
  // the programs are generated without loading them (and listed with -S,
  // as libdtrace lists DIF while compiling with DTRACE_C_DIFV).
  if (cl.compileOnly) {
    if (auto r = program.generateUnloaded(SIZE_MAX, compiler.showsProgram()); !r) {
      return fail(r.error().message);
    }
  }
  // exec_prog() for each program: the match notice, then with -v the
  // stability report on the output.
  for (size_t i = 0; i < units.size(); i++) {
    if (!cl.compileOnly && !compiler.quiet()) {
      std::fprintf(stderr, "dtrace: %s '%s' matched %zu probe%s\n",
                   units[i].isScript ? "script" : "description", programName(units[i]).c_str(),
                   matched[i], matched[i] == 1 ? "" : "s");
    }
    if (!stabilityReports[i].empty()) {
      std::fputs(stabilityReports[i].c_str(), out);
      std::fflush(out);
    }
  }
  if (cl.compileOnly) return 0;
  // Nothing enabled and no process to wait for (an empty program with
  // -x empty, or -Z descriptions that all matched nothing): tracing could
  // never end by itself.
  size_t total = 0;
  for (size_t n : matched) total += n;
  if (total == 0 && targets.empty()) return fail("no probes matched");
  // As DTrace evaluates a created process (evaltime): tracing starts where
  // it is held, by default once its libraries are initialized.
  const auto holdPoint = proc::holdPointNamed(options.text("evaltime"));
  for (proc::Target& t : targets) {
    if (auto r = t.holdAt(holdPoint.value_or(proc::HoldPoint::Postinit)); !r) {
      return fail(r.error().message);
    }
  }
  // As dtrace(1M) does: each program's match is reported when it is
  // compiled, before tracing is enabled (which may still fail).
  const uint64_t requestedBufsize = options.size("bufsize");
  const uint64_t requestedAggsize = options.size("aggsize");
  const uint64_t requestedDynvarsize = options.size("dynvarsize");
  const bool statusRateSet = options.isSet("statusrate");
  const uint64_t requestedStatusrate = options.timeNs("statusrate");
  const uint64_t requestedCleanrate = options.timeNs("cleanrate");
  if (auto r = program.load(); !r) return fail("could not enable tracing: " + r.error().message);
  reportLoweredSize("buffer size", requestedBufsize, options.size("bufsize"));
  reportLoweredSize("aggregation size", requestedAggsize, options.size("aggsize"));
  reportLoweredSize("dynamic variable size", requestedDynvarsize, options.size("dynvarsize"));
  reportChangedRate("cleaning rate", requestedCleanrate, options.timeNs("cleanrate"));
  if (statusRateSet) {
    reportChangedRate("status rate", requestedStatusrate, options.timeNs("statusrate"));
  }
  if (options.flag("destructive") && !compiler.quiet()) {
    std::fputs("dtrace: allowing destructive actions\n", stderr);
  }
  workConfig.quiet = compiler.quiet();
  auto status = driver::WorkLoop(program, options, std::move(workConfig)).run(targets);
  if (out != stdout) std::fclose(out);
  if (!status) return fail(status.error().message);
  return *status;
}
