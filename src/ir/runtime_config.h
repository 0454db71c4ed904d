// How tracing runs, as the options set it: what the driver decides after
// laying out storage and before generating programs, that generated code
// and the consumer both follow.
#pragma once

#include <cstdint>
#include <optional>

namespace dtrace::ir {

struct RuntimeConfig {
  // bufpolicy=fill: the bytes a CPU records before tracing stops, END's
  // records kept out of it (the driver knows END's clauses); 0 for the
  // other policies.
  uint64_t fillLimit = 0;
  // aggsize: the bytes of new aggregation entries (Aggregation::
  // entryCharge()) each CPU may make per aggregation interval, as DTrace's
  // per-CPU aggregation buffer holds that many bytes of records between two
  // aggrate snapshots; beyond it, aggregation drops. The interval is the
  // globals word at the layout's aggregationEpochOffset, which the consumer
  // bumps every aggrate. The size granted when the maps were created.
  uint64_t aggregationBytesPerCpu = 0;
  // -x temporal and bufpolicy=ring: records carry their time
  // (ir::kRecordTimestampSize; scratch always has room for it).
  bool recordTimestamps = false;
  // stackdepth and ustackdepth count at most this many frames, the most
  // bpf_get_stack() reports (perf_event_max_stack).
  uint32_t stackDepthLimit = 127;
  // -x cpu: probes fire only on this CPU, and BEGIN and END run there.
  std::optional<uint32_t> tracingCpu;
};

}  // namespace dtrace::ir
