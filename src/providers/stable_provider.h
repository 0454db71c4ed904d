// Stable providers over kernel tracepoints (proc, and later sched and io):
// DTrace's probes, each carried by a raw tracepoint, fired only when its
// guards pass (several probes may share a tracepoint), with arguments read
// from the tracepoint's arguments and presented through DTrace's
// translators (args[0] a psinfo_t * for a struct task_struct *).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "providers/provider.h"
#include "providers/thread_record.h"

namespace dtrace::providers {

struct StableProbe {
  std::string name;  // "exec-success"
  // The raw tracepoints that carry it, passing arguments alike:
  // {"sched_process_exec"}; listed when the kernel has the first.
  std::vector<std::string> tracepoints;
  std::vector<ProbeGuard> guards;
  std::vector<ArgSource> args;
  int contextTaskWord = -1;  // see Probe::contextTaskWord
  int eventOrder = 0;        // see Probe::eventOrder
  // Where in the kernel it fires, when one name has several sources
  // (proc:::exec at the new image, or at a failed exec's return).
  std::string function{};
  // The raw tracepoint where the same thread starts what this probe ends
  // (lock:contention_begin for lockstat's contention_end probes), and what
  // it records there for the probe's arguments and guards (ArgSource
  // Recorded and SinceRecorded); empty when the probe stands alone.
  std::string startTracepoint{};
  std::vector<RecordedValue> recorded{};
};

// A probe DTrace has that Linux gives no source for: naming it (exactly)
// fails with the reason, rather than matching nothing.
struct UnavailableProbe {
  std::string name;
  std::string reason;
};

// A provider whose probes are `probes`, each listed (as
// NAME:vmlinux:function:name) only when this kernel has its tracepoint.
std::unique_ptr<Provider> makeStableProvider(std::string name, std::vector<StableProbe> probes,
                                             std::vector<UnavailableProbe> unavailable = {});

// Building blocks for the definitions.
// Context word `index` (a raw tracepoint's argument `index`), of C type
// `type`, presented as `translated` when given.
ArgSource contextWord(int index, std::string type, std::string translated = {});
// `size` bytes at the pointer in context word `index` plus the members' offsets.
ArgSource contextMember(int index, std::vector<std::pair<std::string, std::string>> members,
                        uint8_t size, std::string type, std::string translated = {});
ProbeGuard guard(ProbeGuard::Test test, ArgSource value, std::vector<int64_t> operands = {});

}  // namespace dtrace::providers
