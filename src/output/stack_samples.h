// -x oformat=folded and -x flamegraph: aggregation entries as stacks of
// frames with a weight, the input of flame graphs (docs/OUTPUT.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "consume/aggregation_table.h"
#include "print/stack.h"
#include "print/stack_sample.h"

namespace dtrace::output {

// Whether an aggregation's keys include stack() or ustack().
bool hasStackKey(const ir::Aggregation& agg);

// Whether entries of this aggregation fold: its values are numbers.
bool folds(const ir::Aggregation& agg);

// Each row of column `column` whose value is above 0 as a sample: its keys
// become frames in key order (a stack its frames named as DTrace prints
// them, root first; user frames before kernel frames when a key holds
// both), its value the weight.
std::vector<print::StackSample> tableSamples(const consume::AggregationTable& table, size_t column,
                                             uint64_t normal, const print::SymbolContext& symbols);

}  // namespace dtrace::output
