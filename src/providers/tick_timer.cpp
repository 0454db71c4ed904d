#include "providers/tick_timer.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

#include "bpf/program.h"
#include "util/thread_on_cpu.h"

namespace dtrace::providers {

namespace {

// A stall (stopped process, overloaded machine) longer than this many
// periods resumes without replaying every missed tick.
constexpr uint64_t kMaxCatchUp = 100;

// tick-N's arguments read as 0; a zeroed context keeps any ctx load of the
// program in bounds.
constexpr int kContextWords = 6;

struct TimerFds {
  Fd timer, lifeline, shutdown, program;
};

void fire(int progFd, std::optional<uint32_t> cpu) {
  const uint64_t context[kContextWords] = {};
  (void)bpf::runProgram(progFd, context, cpu);
}

void runTimer(TimerFds fds, std::optional<uint32_t> cpu,
              std::shared_ptr<std::atomic<bool>> finished) {
  // Signals belong to the consumer's main thread.
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);
  // -x cpu: the thread runs there, so the program runs in it (seeing
  // dtrace as the current process) rather than in an interrupt there.
  std::optional<ThreadOnCpu> onCpu;
  if (cpu) onCpu.emplace(*cpu);
  pollfd polled[3] = {{fds.timer.get(), POLLIN, 0},
                      {fds.lifeline.get(), POLLIN, 0},
                      {fds.shutdown.get(), POLLIN, 0}};
  while (true) {
    if (poll(polled, 3, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (polled[1].revents != 0 || polled[2].revents != 0) break;  // the Link or the owner is gone
    uint64_t expirations = 0;
    if (read(fds.timer.get(), &expirations, sizeof expirations) != sizeof expirations) continue;
    if (expirations > kMaxCatchUp) expirations = 1;
    for (uint64_t i = 0; i < expirations; ++i) fire(fds.program.get(), cpu);
  }
  finished->store(true);
}

std::string errnoMessage(const char* what) { return std::string(what) + ": " + strerror(errno); }

}  // namespace

TickTimers::~TickTimers() {
  if (shutdown_) {
    const uint64_t one = 1;
    (void)!write(shutdown_.get(), &one, sizeof one);
  }
  for (Timer& t : timers_) t.thread.join();
}

void TickTimers::reap() {
  for (auto it = timers_.begin(); it != timers_.end();) {
    if (it->finished->load()) {
      it->thread.join();
      it = timers_.erase(it);
    } else {
      ++it;
    }
  }
}

size_t TickTimers::running() {
  reap();
  return timers_.size();
}

Result<bpf::Link> TickTimers::start(int progFd, uint64_t periodNs, std::optional<uint32_t> cpu) {
  reap();
  if (!shutdown_) {
    shutdown_.reset(eventfd(0, EFD_CLOEXEC));
    if (!shutdown_) return Error{errnoMessage("cannot create tick timer")};
  }
  TimerFds fds;
  fds.program.reset(fcntl(progFd, F_DUPFD_CLOEXEC, 0));
  if (!fds.program) return Error{errnoMessage("cannot start tick timer")};
  fds.shutdown.reset(fcntl(shutdown_.get(), F_DUPFD_CLOEXEC, 0));
  if (!fds.shutdown) return Error{errnoMessage("cannot start tick timer")};
  fds.timer.reset(timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC));
  if (!fds.timer) return Error{errnoMessage("cannot create tick timer")};
  int pipeFds[2];
  if (pipe2(pipeFds, O_CLOEXEC) != 0) return Error{errnoMessage("cannot create tick timer")};
  fds.lifeline.reset(pipeFds[0]);
  Fd writeEnd(pipeFds[1]);
  // A periodic timerfd keeps exact absolute deadlines and counts overruns;
  // unlike a sleep, it is not delayed by the thread's 50us timer slack.
  itimerspec spec{};
  spec.it_interval.tv_sec = static_cast<time_t>(periodNs / 1000000000ULL);
  spec.it_interval.tv_nsec = static_cast<long>(periodNs % 1000000000ULL);
  spec.it_value = spec.it_interval;
  if (timerfd_settime(fds.timer.get(), 0, &spec, nullptr) != 0) {
    return Error{errnoMessage("cannot start tick timer")};
  }
  auto finished = std::make_shared<std::atomic<bool>>(false);
  try {
    timers_.push_back(Timer{std::thread(runTimer, std::move(fds), cpu, finished), finished});
  } catch (const std::system_error& e) {
    return Error{std::string("cannot start tick timer thread: ") + e.what()};
  }
  return bpf::Link(Fd(), std::move(writeEnd));
}

}  // namespace dtrace::providers
