// The distributions quantize(), lquantize() and llquantize() print: a
// header, then one row per bucket from just before the first bucket with
// data to just after the last, with '@' bars scaled to the total (bars to
// both sides of a centre line when some counts are negative).
#pragma once

#include <cstdint>
#include <string>

#include "ir/aggregation.h"

namespace dtrace::print {

// The distribution of `buckets` (agg.dataWords() counts), each count
// divided by `normal` as normalize() asks. Starts with a newline.
void appendDistribution(std::string& out, const ir::Aggregation& agg, const int64_t* buckets,
                        uint64_t normal);

}  // namespace dtrace::print
