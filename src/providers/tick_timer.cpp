#include "providers/tick_timer.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include "bpf/fd.h"

namespace dtrace::providers {

namespace {

// One distinct function per slot. noipa keeps each out-of-line and unmerged
// (it implies noinline and no_icf); the asm is a side effect that cannot be
// optimised away.
template <int N>
__attribute__((noipa, used)) void slotMarker() {
  asm volatile("" ::"i"(N) : "memory");
}

using Marker = void (*)();

template <size_t... I>
constexpr std::array<Marker, sizeof...(I)> makeMarkers(std::index_sequence<I...>) {
  return {&slotMarker<static_cast<int>(I)>...};
}

constexpr auto kMarkers = makeMarkers(std::make_index_sequence<kTickSlots>());

// Trivially destructible, so a timer thread still running while the process
// exits never touches a destroyed object.
std::atomic<bool> gClaimed[kTickSlots];

// A stall (stopped process, overloaded machine) longer than this many
// periods resumes without replaying every missed tick.
constexpr uint64_t kMaxCatchUp = 100;

void runTimer(int slot, bpf::Fd timer, bpf::Fd lifeline) {
  // Signals belong to the consumer's main thread.
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, nullptr);
  const Marker fire = kMarkers[static_cast<size_t>(slot)];
  pollfd fds[2] = {{timer.get(), POLLIN, 0}, {lifeline.get(), POLLIN, 0}};
  while (true) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[1].revents != 0) break;  // the Link closed the other end
    uint64_t expirations = 0;
    if (read(timer.get(), &expirations, sizeof expirations) != sizeof expirations) continue;
    if (expirations > kMaxCatchUp) expirations = 1;
    for (uint64_t i = 0; i < expirations; ++i) fire();
  }
  gClaimed[slot].store(false);
}

std::string errnoMessage(const char* what) { return std::string(what) + ": " + strerror(errno); }

}  // namespace

Result<int> claimTickSlot() {
  for (int i = 0; i < kTickSlots; ++i) {
    bool expected = false;
    if (gClaimed[i].compare_exchange_strong(expected, true)) return i;
  }
  return Error{"too many tick probes enabled (at most " + std::to_string(kTickSlots) + ")"};
}

void releaseTickSlot(int slot) { gClaimed[slot].store(false); }

const void* tickMarker(int slot) {
  return reinterpret_cast<const void*>(kMarkers[static_cast<size_t>(slot)]);
}

Result<bpf::Link> startTickTimer(int slot, uint64_t periodNs) {
  bpf::Fd timer(timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC));
  if (!timer) return Error{errnoMessage("cannot create tick timer")};
  // A periodic timerfd keeps exact absolute deadlines and counts overruns;
  // unlike a sleep, it is not delayed by the thread's 50us timer slack.
  itimerspec spec{};
  spec.it_interval.tv_sec = static_cast<time_t>(periodNs / 1000000000ULL);
  spec.it_interval.tv_nsec = static_cast<long>(periodNs % 1000000000ULL);
  spec.it_value = spec.it_interval;
  int pipeFds[2];
  if (pipe2(pipeFds, O_CLOEXEC) != 0) return Error{errnoMessage("cannot create tick timer")};
  bpf::Fd readEnd(pipeFds[0]), writeEnd(pipeFds[1]);
  if (timerfd_settime(timer.get(), 0, &spec, nullptr) != 0) {
    return Error{errnoMessage("cannot start tick timer")};
  }
  try {
    std::thread(runTimer, slot, std::move(timer), std::move(readEnd)).detach();
  } catch (const std::system_error& e) {
    return Error{std::string("cannot start tick timer thread: ") + e.what()};
  }
  return bpf::Link(bpf::Fd(), std::move(writeEnd));
}

}  // namespace dtrace::providers
