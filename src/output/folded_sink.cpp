#include "output/folded_sink.h"

#include <string>

#include "output/stack_samples.h"
#include "print/folded.h"

namespace dtrace::output {

// Each aggregation of numbers prints one line per entry.
Result<void> FoldedSink::printa(const consume::AggregationPrint& request) {
  std::string text;
  for (size_t column = 0; column < request.table.columns(); column++) {
    const ir::Aggregation& agg = request.table.aggregation(column);
    text +=
        print::foldedStacks(tableSamples(request.table, column, request.normal(agg.id), symbols_));
  }
  return output().write(text);
}

Result<void> FoldedSink::finalAggregation(const consume::AggregationPrint& request) {
  return printa(request);
}

}  // namespace dtrace::output
