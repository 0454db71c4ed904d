// Signals blocked for as long as an object lives, to be read from a
// signalfd instead of acted on: the previous mask comes back on every path.
#pragma once

#include <signal.h>
#include <time.h>

#include <initializer_list>

namespace dtrace::driver {

class BlockedSignals {
 public:
  explicit BlockedSignals(std::initializer_list<int> signals) {
    sigemptyset(&set_);
    for (int s : signals) sigaddset(&set_, s);
    sigprocmask(SIG_BLOCK, &set_, &previous_);
  }
  // One of the signals still pending (sent after the last was read) is
  // taken rather than acted on once unblocked, as it was while blocked:
  // tracing is over.
  ~BlockedSignals() {
    sigset_t unblocked;
    sigemptyset(&unblocked);
    for (int s = 1; s < NSIG; s++) {
      if (sigismember(&set_, s) == 1 && sigismember(&previous_, s) != 1) sigaddset(&unblocked, s);
    }
    const timespec now{};
    while (sigtimedwait(&unblocked, nullptr, &now) > 0) {
    }
    sigprocmask(SIG_SETMASK, &previous_, nullptr);
  }
  BlockedSignals(const BlockedSignals&) = delete;
  BlockedSignals& operator=(const BlockedSignals&) = delete;

  const sigset_t& set() const { return set_; }

 private:
  sigset_t set_;
  sigset_t previous_;
};

}  // namespace dtrace::driver
