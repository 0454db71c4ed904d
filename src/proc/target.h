// Target processes: the command dtrace runs with -c (created, held before it
// execs until tracing is enabled, so no event is missed) or the process it
// grabs with -p (observed, never harmed).
#pragma once

#include <sys/types.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/fd.h"
#include "util/result.h"

namespace dtrace::proc {

// Where a created process is held until tracing is enabled (the evaltime
// option): at its exec, once the dynamic linker has mapped its libraries
// (preinit), once it has also run their initializers and reached the
// program's entry point (postinit, DTrace's default), or at main().
enum class HoldPoint { Exec, Preinit, Postinit, Main };

// The evaltime option's value ("" for the default); nullopt if unknown.
std::optional<HoldPoint> holdPointNamed(std::string_view name);

class Target {
 public:
  // -c: forks a child that waits (blocked on a pipe) until start(), then
  // execvp's `command` split on whitespace as dtrace does (no shell). The
  // child shares dtrace's stdin, stdout and stderr. If dtrace goes away
  // before start(), the child exits without running the command; if it
  // dies afterwards (even by SIGKILL), the kernel kills the command.
  // With `environment` ("NAME=value" entries), the command runs with it
  // instead of dtrace's own (-x setenv / unsetenv).
  static Result<Target> spawn(const std::string& command,
                              const std::vector<std::string>* environment = nullptr);
  static Result<Target> spawn(const std::vector<std::string>& argv,
                              const std::vector<std::string>* environment = nullptr);
  // -p: the process must exist. We never signal it.
  static Result<Target> grab(int pid);

  Target(Target&& other) noexcept;
  Target& operator=(Target&& other) noexcept;
  Target(const Target&) = delete;
  Target& operator=(const Target&) = delete;
  // A spawned child that is still running is killed and reaped, as dtrace
  // does with the processes it created; a grabbed process is left alone.
  ~Target();

  int pid() const { return pid_; }
  bool created() const { return created_; }
  // The command words of a spawned child (argv[0] first); empty for grab().
  const std::vector<std::string>& argv() const { return argv_; }

  // Lets a spawned child exec. Fails with dtrace's text if the exec failed
  // ("failed to execute ./x: cannot execute file"); no-op for grab().
  Result<void> start();

  // For a spawned child not yet started: lets it exec, under ptrace, and
  // holds it at its entry point, its shared libraries mapped and no
  // instruction of the program run, so that probes on its code can be
  // placed before start() releases it. No-op otherwise.
  Result<void> holdAtEntry();
  // Holds a spawned child not yet started at `point` (see HoldPoint); from
  // its entry point it may still run on to main(), never back. No-op for
  // grabbed processes.
  Result<void> holdAt(HoldPoint point);
  // Held at its entry point: exec'd, its mappings readable, not yet run.
  bool held() const { return held_; }

  // A pidfd: poll it for POLLIN, which it reports once the process exits.
  int exitFd() const { return pidfd_.get(); }
  // Non-blocking: has the process exited? Reaps a spawned child.
  bool exited();
  // After exited(): the exit status for a normal exit, -1 otherwise or when
  // unknown (grabbed processes are not ours to reap).
  int exitStatus() const;
  // After exited(): the terminating signal, or 0.
  int termSignal() const;
  bool statusKnown() const { return statusKnown_; }
  int waitStatus() const { return waitStatus_; }  // raw waitpid() status when known

  // On error paths only: SIGKILL a spawned child and reap it.
  void kill();

 private:
  Target() = default;
  void close();
  // Tells the waiting child to exec (or to exec under ptrace) and reports
  // whether the exec failed.
  Result<void> releaseChild(char how);
  // Held: lets the process run until it executes the instruction at
  // `address` with `stopHere()` true, and holds it there, that instruction
  // not yet run. False when it exited first.
  Result<void> runTo(uint64_t address, const std::function<bool()>& stopHere);
  // Gives up on a held process: kills it, with `why` in dtrace's words.
  Result<void> failedControl(const std::string& why);

  pid_t pid_ = -1;
  Fd pidfd_;
  Fd goFd_;       // write end of the pipe the unstarted child waits on
  Fd execErrFd_;  // read end: EOF when the exec succeeded, else errno
  bool created_ = false;
  bool started_ = false;
  bool held_ = false;  // exec'd under ptrace, stopped (HoldPoint::Preinit or later)
  HoldPoint heldAt_ = HoldPoint::Exec;
  bool exited_ = false;
  bool statusKnown_ = false;
  int waitStatus_ = 0;
  std::vector<std::string> argv_;
};

// The notice dtrace prints (after "dtrace: ", and only when not quiet) when a
// traced process goes away: "pid 1234 has exited", "pid 1234 exited with
// status 3" or "pid 1234 terminated by SIGKILL".
std::string exitNotice(int pid, bool statusKnown, int waitStatus);
std::string exitNotice(const Target& target);

}  // namespace dtrace::proc
