#include "output/flame_graph_sink.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "output/stack_samples.h"
#include "print/flamegraph.h"

namespace dtrace::output {

Result<void> FlameGraphSink::tracingEnded(consume::AggregationTables& tables) {
  if (auto r = ForwardingSink::tracingEnded(tables); !r) return r;
  for (const ir::Aggregation& agg : tables.program().aggregations) {
    if (!hasStackKey(agg) || !folds(agg)) continue;
    return tables.visit(
        agg, [this](const consume::AggregationPrint& request) { return write(request); });
  }
  return makeError("no aggregation with stack() or ustack() keys for the flame graph " + path_);
}

Result<void> FlameGraphSink::write(const consume::AggregationPrint& request) {
  const ir::Aggregation& agg = request.table.aggregation(0);
  print::FlameGraphOptions options;
  options.subtitle = (agg.name.empty() ? "@" : "@" + agg.name) + " from " + commandLine_;
  if (agg.func != ir::AggFunc::Count) options.countName = agg.info().name;
  const std::string svg = print::renderFlameGraph(
      tableSamples(request.table, 0, request.normal(agg.id), symbols_), options);
  FILE* f = std::fopen(path_.c_str(), "we");
  if (!f) return makeError("failed to write flame graph " + path_ + ": " + std::strerror(errno));
  const bool ok = std::fwrite(svg.data(), 1, svg.size(), f) == svg.size();
  if (std::fclose(f) != 0 || !ok) {
    return makeError("failed to write flame graph " + path_ + ": " + std::strerror(errno));
  }
  return {};
}

}  // namespace dtrace::output
