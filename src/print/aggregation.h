// The default layout of an aggregation entry, as dtrace(1M) prints
// aggregations at exit: each key in a column of its own, then the value.
#pragma once

#include <cstdint>
#include <string>

#include "ir/program.h"

namespace dtrace::print {

// One line: the key fields of `key` (laid out as agg.keys says), then the
// aggregation's value, then a newline.
void appendAggregationLine(std::string& out, const ir::Aggregation& agg, const uint8_t* key,
                           int64_t value);

}  // namespace dtrace::print
