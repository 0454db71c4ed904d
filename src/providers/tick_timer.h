// Timer threads that fire tick-N probes. On this VM a perf cpu-clock event
// bound to an idle CPU barely fires (measured below), so tick-N does not use
// one: a thread waits on a periodic CLOCK_MONOTONIC timerfd and calls a
// marker function that carries the probe's uprobe. One marker per
// slot, so each tick probe has its own uprobe target.
//
// Measured on this 2-vCPU Firecracker guest (Linux 6.18, idle), 2 s per run,
// PERF_COUNT_SW_CPU_CLOCK, BPF_PROG_TYPE_PERF_EVENT, run_cnt from
// BPF_ENABLE_STATS:
//   period 10 ms, pid=-1 cpu=0: 200 firings (expected 200)
//   period 10 ms, pid=-1 cpu=1: 0-1 firings (expected 200); 200 when cpu 1 is busy
//   period 1 ms, cpu=0: 2000; cpu=1: 6; both CPUs at once: 1437 (expected 4000)
// A timer thread calling a uprobed marker fires at its rate whether or not
// any CPU is busy: over 2 s idle, tick-10ms 200, tick-1000 2000, tick-5000
// 10000, tick-1s 2 (the unit test checks tick-10ms over one second).
#pragma once

#include <cstdint>

#include "bpf/attach.h"
#include "util/result.h"

namespace dtrace::providers {

inline constexpr int kTickSlots = 32;

// Reserves a free marker slot; its marker is where the probe's uprobe goes.
Result<int> claimTickSlot();
// Frees a claimed slot whose timer was never started.
void releaseTickSlot(int slot);
const void* tickMarker(int slot);

// Starts a thread that calls the slot's marker every periodNs (absolute
// CLOCK_MONOTONIC deadlines, first one period from now). The returned Link
// holds the thread's lifeline: destroying it stops the thread, which then
// frees the slot.
Result<bpf::Link> startTickTimer(int slot, uint64_t periodNs);

}  // namespace dtrace::providers
