// The default layout of an aggregation entry, as dtrace(1M) prints
// aggregations at exit and printa() without a format: each key in a column
// of its own, then the value (a number, or a distribution).
#pragma once

#include <cstdint>
#include <string>

#include "ir/aggregation.h"
#include "ir/printf_format.h"
#include "print/distribution.h"
#include "print/stack.h"

namespace dtrace::print {

// The keys of `key` (laid out as agg.keys says), one after the other.
// `symbols` names the program counters of stack and symbol keys. `packed`
// (-x agghist) gives strings 16 right-justified columns, not 50.
void appendAggregationKeys(std::string& out, const ir::Aggregation& agg, const uint8_t* key,
                           const SymbolContext* symbols = nullptr, bool packed = false);
// The columns packed keys take, each with its leading blank (DTrace's
// width of the histogram's "key" heading).
size_t packedKeysWidth(const ir::Aggregation& agg);

// The value of merged data words as DTrace shows it: " %16lld" for
// scalars, the distribution for quantizations. Values are divided by
// `normal` (normalize()); `style` draws distributions' bars.
void appendAggregationValue(std::string& out, const ir::Aggregation& agg, const int64_t* data,
                            uint64_t normal, BarStyle style = {});

// printa()'s %@ conversion: the value formatted by the conversion (its
// flags and width in `stem`, e.g. "%-10"); distributions print whole.
void appendFormattedAggregationValue(std::string& out, const ir::Aggregation& agg,
                                     const int64_t* data, uint64_t normal,
                                     const ir::PrintfConversion& conversion,
                                     const std::string& stem, BarStyle style = {});

// One entry: keys, value, newline.
void appendAggregationLine(std::string& out, const ir::Aggregation& agg, const uint8_t* key,
                           const int64_t* data, uint64_t normal = 1,
                           const SymbolContext* symbols = nullptr);

}  // namespace dtrace::print
