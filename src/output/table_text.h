// An aggregation table as dtrace(1M) prints it: printa()'s default layout
// (keys, then each value; -x aggpercpu, agghist and aggpack), or the rows
// of printa()'s format. The text sink prints it; the JSON sink gives a
// format's text as the "message" of a printa().
#pragma once

#include <functional>
#include <string>

#include "consume/sink.h"
#include "util/result.h"

namespace dtrace::output {

// Takes the text a piece at a time (large tables are written in pieces).
using TextPieces = std::function<Result<void>(const std::string&)>;

// The rows of `request.table`: each in the default layout, or as
// `request.format` says. The default layout's empty line before the rows is
// the caller's.
Result<void> printTable(const consume::AggregationPrint& request,
                        const print::SymbolContext& symbols, const TextPieces& pieces);

}  // namespace dtrace::output
