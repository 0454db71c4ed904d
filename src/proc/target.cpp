#include "proc/target.h"

#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <link.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <utility>

#include "sym/elf_symbols_by_name.h"
#include "sym/process_maps.h"

namespace dtrace::proc {
namespace {

constexpr std::string_view kWhitespace = " \t\n\r\f\v";

// libproc's words for why a process could not be created or grabbed, which
// dtrace prints after "failed to execute CMD: " / "failed to grab pid N: ".
constexpr const char* kNoExecutable = "cannot find executable file";
constexpr const char* kCannotExecute = "cannot execute file";
constexpr const char* kNoProcess = "no such process";
constexpr const char* kZombie = "zombie process";

int openPidfd(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

bool isExecutableFile(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

bool exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

// Checks up front what execvp will find, so a mistyped -c command fails
// before anything is compiled or enabled, as it does on illumos.
const char* executableProblem(const std::string& name) {
  if (name.empty()) return kNoExecutable;
  if (name.find('/') != std::string::npos) {
    if (isExecutableFile(name)) return nullptr;
    return exists(name) ? kCannotExecute : kNoExecutable;
  }
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  bool sawFile = false;
  size_t pos = 0;
  while (pos <= dirs.size()) {
    size_t colon = dirs.find(':', pos);
    if (colon == std::string_view::npos) colon = dirs.size();
    std::string dir(dirs.substr(pos, colon - pos));
    std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
    if (isExecutableFile(candidate)) return nullptr;
    sawFile = sawFile || exists(candidate);
    pos = colon + 1;
  }
  return sawFile ? kCannotExecute : kNoExecutable;
}

const char* execErrorText(int error) {
  return error == ENOENT || error == ENOTDIR ? kNoExecutable : kCannotExecute;
}

std::vector<std::string> splitCommand(const std::string& command) {
  std::vector<std::string> words;
  size_t pos = 0;
  while (true) {
    size_t begin = command.find_first_not_of(kWhitespace, pos);
    if (begin == std::string::npos) break;
    size_t end = command.find_first_of(kWhitespace, begin);
    if (end == std::string::npos) end = command.size();
    words.push_back(command.substr(begin, end - begin));
    pos = end;
  }
  if (words.empty()) words.push_back(command);  // as dtrace's make_argv does
  return words;
}

// What the waiting child reads: exec, or exec under ptrace.
constexpr char kExec = 1, kTraceExec = 2;

// The auxiliary vector entry `type` of a process, or 0.
uint64_t auxvEntry(pid_t pid, uint64_t type) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/auxv", std::ios::binary);
  uint64_t pair[2];
  while (in.read(reinterpret_cast<char*>(pair), sizeof pair)) {
    if (pair[0] == type) return pair[1];
    if (pair[0] == AT_NULL) break;
  }
  return 0;
}

// The program's entry point (AT_ENTRY).
uint64_t entryPoint(pid_t pid) { return auxvEntry(pid, AT_ENTRY); }

struct LoadedObject {
  std::string path;
  uint64_t base = 0;
};

// The dynamic linker of a process (AT_BASE, and the file mapped there);
// none for a static program.
std::optional<LoadedObject> dynamicLinker(pid_t pid) {
  const uint64_t base = auxvEntry(pid, AT_BASE);
  if (base == 0) return std::nullopt;
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  sym::Mapping m;
  for (std::string line; std::getline(maps, line);) {
    if (sym::parseMapsLine(line, m) && m.start == base && m.isFile()) {
      return LoadedObject{m.path, base};
    }
  }
  return std::nullopt;
}

// An ELF file's symbols and entry point, as linked.
class ElfFile {
 public:
  explicit ElfFile(const std::string& path) {
    static const bool initialized = elf_version(EV_CURRENT) != EV_NONE;
    if (!initialized) return;
    fd_.reset(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (fd_) elf_ = elf_begin(fd_.get(), ELF_C_READ_MMAP, nullptr);
    if (elf_) symbols_.emplace(elf_);
  }
  ~ElfFile() {
    if (elf_) elf_end(elf_);  // before fd_ closes
  }
  ElfFile(const ElfFile&) = delete;
  ElfFile& operator=(const ElfFile&) = delete;

  std::optional<uint64_t> symbol(std::string_view name) const {
    if (!symbols_) return std::nullopt;
    auto value = symbols_->find(name, 0);
    if (!value) return std::nullopt;
    return *value;
  }
  std::optional<uint64_t> entry() const {
    GElf_Ehdr header;
    if (!elf_ || !gelf_getehdr(elf_, &header)) return std::nullopt;
    return header.e_entry;
  }

 private:
  Fd fd_;
  Elf* elf_ = nullptr;
  std::optional<sym::ElfSymbolsByName> symbols_;
};

// Waits for the traced child to stop with SIGTRAP, passing on any other
// signal it stops with. False if it exited instead.
bool waitForTrap(pid_t pid, int& status) {
  for (;;) {
    if (::waitpid(pid, &status, 0) < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (!WIFSTOPPED(status)) return false;
    if (WSTOPSIG(status) == SIGTRAP) return true;
    ::ptrace(PTRACE_CONT, pid, nullptr, reinterpret_cast<void*>(uintptr_t(WSTOPSIG(status))));
  }
}

// Runs in the forked child: only async-signal-safe calls.
[[noreturn]] void childWaitThenExec(int goRead, int execErrWrite, char* const* argv,
                                    char* const* envp) {
  // The command dies with dtrace, however dtrace ends (SIGKILL included),
  // as dtrace kills the processes it created when it exits: never an orphan
  // left running untraced, nor one stopped at its entry point. The setting
  // survives exec (for a command that is not set-user-ID). A dtrace that
  // died before this shows as the end of the `go` pipe below; no getppid()
  // here, which the probes may already see as the command's.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) ::_exit(127);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int sig : {SIGINT, SIGTERM, SIGQUIT, SIGPIPE, SIGCHLD, SIGHUP}) signal(sig, SIG_DFL);

  char go = 0;
  ssize_t n;
  do {
    n = ::read(goRead, &go, 1);
  } while (n < 0 && errno == EINTR);
  if (n != 1) ::_exit(127);  // dtrace went away before enabling: run nothing
  // kTraceExec: stop after the exec, for dtrace to hold at the entry point.
  if (go == kTraceExec && ::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) != 0) ::_exit(127);

  if (envp != nullptr) {
    ::execvpe(argv[0], argv, envp);
  } else {
    ::execvp(argv[0], argv);
  }
  int error = errno;
  ssize_t ignored = ::write(execErrWrite, &error, sizeof error);
  (void)ignored;
  ::_exit(127);
}

}  // namespace

std::optional<HoldPoint> holdPointNamed(std::string_view name) {
  if (name == "exec") return HoldPoint::Exec;
  if (name == "preinit") return HoldPoint::Preinit;
  if (name == "postinit" || name.empty()) return HoldPoint::Postinit;
  if (name == "main") return HoldPoint::Main;
  return std::nullopt;
}

Result<Target> Target::spawn(const std::string& command,
                             const std::vector<std::string>* environment) {
  return spawn(splitCommand(command), environment);
}

Result<Target> Target::spawn(const std::vector<std::string>& argv,
                             const std::vector<std::string>* environment) {
  if (argv.empty()) return Error{std::string("failed to execute : ") + kNoExecutable};
  if (const char* problem = executableProblem(argv[0])) {
    return Error{"failed to execute " + argv[0] + ": " + problem};
  }

  int go[2], execErr[2];
  if (::pipe2(go, O_CLOEXEC) != 0) {
    return Error{std::string("failed to execute ") + argv[0] + ": " + strerror(errno)};
  }
  if (::pipe2(execErr, O_CLOEXEC) != 0) {
    int error = errno;
    ::close(go[0]);
    ::close(go[1]);
    return Error{std::string("failed to execute ") + argv[0] + ": " + strerror(error)};
  }

  Target target;
  target.created_ = true;
  target.argv_ = argv;
  std::vector<char*> args;
  for (std::string& word : target.argv_) args.push_back(word.data());
  args.push_back(nullptr);
  std::vector<std::string> envCopy = environment ? *environment : std::vector<std::string>();
  std::vector<char*> envp;
  for (std::string& entry : envCopy) envp.push_back(entry.data());
  envp.push_back(nullptr);

  pid_t pid = ::fork();
  if (pid < 0) {
    int error = errno;
    for (int fd : {go[0], go[1], execErr[0], execErr[1]}) ::close(fd);
    return Error{std::string("failed to execute ") + argv[0] + ": " + strerror(error)};
  }
  if (pid == 0) {
    ::close(go[1]);  // so the read sees EOF if dtrace dies
    ::close(execErr[0]);
    childWaitThenExec(go[0], execErr[1], args.data(), environment ? envp.data() : nullptr);
  }
  ::close(go[0]);
  ::close(execErr[1]);
  target.pid_ = pid;
  target.goFd_.reset(go[1]);
  target.execErrFd_.reset(execErr[0]);
  target.pidfd_.reset(openPidfd(pid));
  if (!target.pidfd_) {
    int error = errno;
    target.kill();
    return Error{std::string("failed to execute ") + argv[0] + ": " + strerror(error)};
  }
  return target;
}

Result<Target> Target::grab(int pid) {
  std::string prefix = "failed to grab pid " + std::to_string(pid) + ": ";
  if (pid <= 0) return Error{prefix + kNoProcess};
  Target target;
  target.pid_ = pid;
  target.pidfd_.reset(openPidfd(pid));
  if (!target.pidfd_) {
    return Error{prefix + (errno == ESRCH || errno == EINVAL ? kNoProcess : strerror(errno))};
  }
  if (sym::isZombie(pid)) return Error{prefix + kZombie};
  target.started_ = true;
  return target;
}

Target::Target(Target&& other) noexcept { *this = std::move(other); }

Target& Target::operator=(Target&& other) noexcept {
  if (this == &other) return *this;
  close();
  pid_ = std::exchange(other.pid_, -1);
  pidfd_ = std::move(other.pidfd_);
  goFd_ = std::move(other.goFd_);
  execErrFd_ = std::move(other.execErrFd_);
  created_ = std::exchange(other.created_, false);
  started_ = other.started_;
  held_ = std::exchange(other.held_, false);
  heldAt_ = other.heldAt_;
  exited_ = other.exited_;
  statusKnown_ = other.statusKnown_;
  waitStatus_ = other.waitStatus_;
  argv_ = std::move(other.argv_);
  return *this;
}

Target::~Target() { close(); }

void Target::close() {
  if (created_ && pid_ > 0 && !exited_) {
    if (!started_ && !held_) {
      goFd_.reset();  // the child sees EOF and exits without exec'ing
      int status = 0;
      while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
      }
      exited_ = true;
    } else {
      kill();
    }
  }
  goFd_.reset();
  execErrFd_.reset();
  pidfd_.reset();
}

Result<void> Target::start() {
  if (!created_ || started_) return {};
  started_ = true;
  if (held_) {
    if (::ptrace(PTRACE_DETACH, pid_, nullptr, nullptr) != 0) {
      return Error{"failed to release " + argv_[0] + ": " + strerror(errno)};
    }
    return {};
  }
  return releaseChild(kExec);
}

Result<void> Target::holdAtEntry() { return holdAt(HoldPoint::Postinit); }

Result<void> Target::failedControl(const std::string& why) {
  kill();
  started_ = true;
  return Error{"failed to control " + argv_[0] + ": " + why};
}

Result<void> Target::holdAt(HoldPoint point) {
  // Even exec holds it, once exec has succeeded, as Pxcreate() stops a
  // created process only on its successful exec: the path search's failed
  // exec()s and the exec itself come before tracing does.
  if (!created_ || started_ || (held_ && heldAt_ >= point)) return {};
  if (!held_) {
    if (auto r = releaseChild(kTraceExec); !r) {
      started_ = true;
      return r;
    }
    int status = 0;
    if (!waitForTrap(pid_, status)) return failedControl("it exited before starting");
    held_ = true;
    heldAt_ = HoldPoint::Exec;
    // If dtrace dies, the held process must not run untraced.
    ::ptrace(PTRACE_SETOPTIONS, pid_, nullptr, reinterpret_cast<void*>(PTRACE_O_EXITKILL));
  }
  if (point >= HoldPoint::Preinit && heldAt_ < HoldPoint::Preinit) {
    // The dynamic linker calls _dl_debug_state() for debuggers once it has
    // mapped the libraries, _r_debug.r_state then back to RT_CONSISTENT,
    // before it runs their initializers. A static program has none.
    if (const auto linker = dynamicLinker(pid_)) {
      const ElfFile file(linker->path);
      const auto state = file.symbol("_dl_debug_state");
      const auto debug = file.symbol("_r_debug");
      if (state && debug) {
        const uint64_t rState = linker->base + *debug + offsetof(r_debug, r_state);
        auto consistent = [&] {
          errno = 0;
          const long word =
              ::ptrace(PTRACE_PEEKDATA, pid_, reinterpret_cast<void*>(rState), nullptr);
          return errno == 0 && static_cast<int>(word) == r_debug::RT_CONSISTENT;
        };
        if (auto r = runTo(linker->base + *state, consistent); !r) return r;
      }
    }
    heldAt_ = HoldPoint::Preinit;
  }
  if (point >= HoldPoint::Postinit && heldAt_ < HoldPoint::Postinit) {
    // The dynamic linker has run the libraries' initializers before it
    // jumps to the entry point: a breakpoint there stops the program just
    // before its own code.
    const uint64_t entry = entryPoint(pid_);
    if (entry == 0) return failedControl("no entry point in its auxiliary vector");
    if (auto r = runTo(entry, [] { return true; }); !r) return r;
    heldAt_ = HoldPoint::Postinit;
  }
  if (point == HoldPoint::Main && heldAt_ < HoldPoint::Main) {
    // As DTrace, a program without a main symbol stays at its entry point.
    const ElfFile exe("/proc/" + std::to_string(pid_) + "/exe");
    const auto main = exe.symbol("main");
    const auto linkedEntry = exe.entry();
    if (main && linkedEntry) {
      const uint64_t bias = entryPoint(pid_) - *linkedEntry;
      if (auto r = runTo(bias + *main, [] { return true; }); !r) return r;
    }
    heldAt_ = HoldPoint::Main;
  }
  return {};
}

Result<void> Target::runTo(uint64_t address, const std::function<bool()>& stopHere) {
  void* at = reinterpret_cast<void*>(address);
  errno = 0;
  const long word = ::ptrace(PTRACE_PEEKTEXT, pid_, at, nullptr);
  if (errno != 0) return failedControl(std::string("cannot read its code: ") + strerror(errno));
  const long trap = (word & ~0xffL) | 0xcc;
  for (;;) {
    if (::ptrace(PTRACE_POKETEXT, pid_, at, reinterpret_cast<void*>(trap)) != 0 ||
        ::ptrace(PTRACE_CONT, pid_, nullptr, nullptr) != 0) {
      return failedControl(std::string("cannot place a breakpoint: ") + strerror(errno));
    }
    user_regs_struct regs{};
    for (;;) {
      int status = 0;
      if (!waitForTrap(pid_, status)) {
        exited_ = true;
        statusKnown_ = true;
        waitStatus_ = status;
        started_ = true;
        return Error{"failed to control " + argv_[0] + ": it exited before tracing could start"};
      }
      if (::ptrace(PTRACE_GETREGS, pid_, nullptr, &regs) != 0) {
        return failedControl(std::string("cannot read its registers: ") + strerror(errno));
      }
      if (regs.rip == address + 1) break;
      // A SIGTRAP of the program's own: it gets it, as it would untraced.
      if (::ptrace(PTRACE_CONT, pid_, nullptr, reinterpret_cast<void*>(uintptr_t(SIGTRAP))) != 0) {
        return failedControl(std::string("cannot resume it: ") + strerror(errno));
      }
    }
    // Back onto the instruction the breakpoint replaced, restored.
    regs.rip = address;
    if (::ptrace(PTRACE_POKETEXT, pid_, at, reinterpret_cast<void*>(word)) != 0 ||
        ::ptrace(PTRACE_SETREGS, pid_, nullptr, &regs) != 0) {
      return failedControl(std::string("cannot remove a breakpoint: ") + strerror(errno));
    }
    if (stopHere()) return {};
    // Not yet: run that one instruction, then plant the breakpoint again.
    int status = 0;
    if (::ptrace(PTRACE_SINGLESTEP, pid_, nullptr, nullptr) != 0 || !waitForTrap(pid_, status)) {
      return failedControl(std::string("cannot step over a breakpoint: ") + strerror(errno));
    }
  }
}

Result<void> Target::releaseChild(char how) {
  ssize_t n;
  do {
    n = ::write(goFd_.get(), &how, 1);
  } while (n < 0 && errno == EINTR);
  goFd_.reset();

  // The error pipe closes on a successful exec; otherwise it carries errno.
  int error = 0;
  ssize_t got;
  do {
    got = ::read(execErrFd_.get(), &error, sizeof error);
  } while (got < 0 && errno == EINTR);
  execErrFd_.reset();
  if (got == static_cast<ssize_t>(sizeof error)) {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    exited_ = true;
    statusKnown_ = true;
    waitStatus_ = status;
    return Error{"failed to execute " + argv_[0] + ": " + execErrorText(error)};
  }
  return {};
}

bool Target::exited() {
  if (exited_) return true;
  if (pid_ <= 0) return true;
  if (created_) {
    int status = 0;
    pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      exited_ = true;
      statusKnown_ = true;
      waitStatus_ = status;
    } else if (r < 0 && errno == ECHILD) {
      exited_ = true;  // reaped elsewhere
    }
    return exited_;
  }
  pollfd pfd = {pidfd_.get(), POLLIN, 0};
  if (::poll(&pfd, 1, 0) > 0 && (pfd.revents & (POLLIN | POLLHUP | POLLERR))) exited_ = true;
  return exited_;
}

int Target::exitStatus() const {
  return statusKnown_ && WIFEXITED(waitStatus_) ? WEXITSTATUS(waitStatus_) : -1;
}

int Target::termSignal() const {
  return statusKnown_ && WIFSIGNALED(waitStatus_) ? WTERMSIG(waitStatus_) : 0;
}

void Target::kill() {
  if (!created_ || pid_ <= 0 || exited_) return;
  if (pidfd_) {
    ::syscall(SYS_pidfd_send_signal, pidfd_.get(), SIGKILL, nullptr, 0);
  } else {
    ::kill(pid_, SIGKILL);
  }
  goFd_.reset();
  int status = 0;
  pid_t r;
  while ((r = ::waitpid(pid_, &status, 0)) < 0 && errno == EINTR) {
  }
  exited_ = true;
  if (r == pid_) {
    statusKnown_ = true;
    waitStatus_ = status;
  }
}

std::string exitNotice(int pid, bool statusKnown, int waitStatus) {
  std::string prefix = "pid " + std::to_string(pid);
  if (statusKnown && WIFSIGNALED(waitStatus)) {
    const char* abbrev = sigabbrev_np(WTERMSIG(waitStatus));
    std::string name = abbrev != nullptr ? std::string("SIG") + abbrev
                                         : "signal " + std::to_string(WTERMSIG(waitStatus));
    return prefix + " terminated by " + name;
  }
  if (statusKnown && WIFEXITED(waitStatus) && WEXITSTATUS(waitStatus) != 0) {
    return prefix + " exited with status " + std::to_string(WEXITSTATUS(waitStatus));
  }
  return prefix + " has exited";
}

std::string exitNotice(const Target& target) {
  return exitNotice(target.pid(), target.statusKnown(), target.waitStatus());
}

}  // namespace dtrace::proc
