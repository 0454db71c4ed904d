// The maps a generated program names, as the driver creates them and the
// emitter refers to them.
#pragma once

#include <cstdint>
#include <vector>

namespace dtrace::ir {

// A hash map as a program reaches it: named directly, or at `slot` of the
// array of maps `fd` (codegen/map_sharing.h).
struct MapRef {
  int fd = -1;
  int32_t slot = -1;  // -1: `fd` is the map itself
};

// A map added here is one more that a program may name beside its
// aggregations and dynamic variables: count it in kFixedMapsPerProgram
// (codegen/map_sharing.h), which keeps every program within the kernel's
// limit.
struct MapFds {
  int globals = -1;
  int scratch = -1;
  int counters = -1;
  // The principal buffers: an array of maps holding one ring buffer per
  // CPU (bpf::CpuRings), indexed by CPU number.
  int cpuRings = -1;
  // A program that dtrace runs in its own thread on a known CPU (BEGIN,
  // END) names that CPU's ring directly; -1: it looks it up in cpuRings.
  int ownCpuRing = -1;
  // Records wake the consumer only once their CPU's ring holds this many
  // bytes (it polls meanwhile); 0: every record may wake it.
  uint64_t ringbufWakeBytes = 0;
  int speculationUsage = -1;         // ir::SpeculationUsage per CPU and speculation ID
  std::vector<MapRef> aggregations;  // by aggregation id
  int aggregationZero = -1;          // one zeroed value, as large as any aggregation's
  std::vector<MapRef> dynamics;      // by dynamic variable id
  int probeTable = -1;               // a shared program's probe table (ProbeTableEntry values)
  // ustack() by call frame information (ir/unwind_table.h): the rows
  // (UnwindRow array) and the processes' mappings (UnwindProcess by pid);
  // -1: user stacks follow frame pointers only.
  int unwindRows = -1;
  int unwindProcesses = -1;
  // vtimestamp (driver::ThreadCpuClock): each thread's time on CPU until
  // its last switch (task storage, u64), and when this CPU's current
  // slice began (per-CPU array, one u64); -1: sum_exec_runtime.
  int threadCpuSums = -1;
  int sliceStarts = -1;
};

}  // namespace dtrace::ir
