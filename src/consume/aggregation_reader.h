// Reads an aggregation's BPF hash map from the kernel into an
// AggregationData snapshot (the only part of aggregation output that
// touches the kernel).
#pragma once

#include "consume/aggregation_snapshot.h"
#include "consume/symbol_keys.h"
#include "util/result.h"

namespace dtrace::consume {

// `mapFd` is the aggregation's BPF_MAP_TYPE_HASH: key agg.keySize bytes of
// tuple then the owning CPU (ir::kAggregationCpuSlot bytes), value a
// generation word then the data words (ir/runtime.h). Entries come back
// grouped by tuple, their CPUs merged (each CPU kept too with `perCpu`);
// those of an older generation than `generation` (the aggregation's
// current one) are marked cleared. With `symbolKeys`, keys naming
// functions or modules merge by what they name.
Result<AggregationData> readAggregation(const ir::Aggregation& agg, int mapFd, uint64_t generation,
                                        bool perCpu, const SymbolKeys* symbolKeys = nullptr);

}  // namespace dtrace::consume
