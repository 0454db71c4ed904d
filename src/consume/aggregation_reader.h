// Reads an aggregation's per-CPU BPF hash map from the kernel into an
// AggregationData snapshot (the only part of aggregation output that
// touches the kernel).
#pragma once

#include "consume/aggregation_snapshot.h"
#include "util/result.h"

namespace dtrace::consume {

// `mapFd` is the aggregation's BPF_MAP_TYPE_PERCPU_HASH: key agg.keySize
// bytes, value one ir::AggValue per possible CPU.
Result<AggregationData> readAggregation(const ir::Aggregation& agg, int mapFd);

}  // namespace dtrace::consume
