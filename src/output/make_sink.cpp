#include "output/make_sink.h"

#include "output/flame_graph_sink.h"
#include "output/folded_sink.h"
#include "output/json_sink.h"
#include "output/metrics_sink.h"
#include "output/text_sink.h"

namespace dtrace::output {

Result<void> checkSinkOptions(const OptionTable& options) {
  const std::string address = options.text("metrics");
  if (address.empty()) return {};
  if (auto r = MetricsServer::checkAddress(address); !r) return r;
  if (auto r = parseMetricLabelNames(options.text("metricslabels")); !r) return r.error();
  return {};
}

Result<std::unique_ptr<consume::Sink>> makeSink(const OptionTable& options, FILE* out, FILE* err,
                                                bool quiet, const std::string& commandLine) {
  const std::string format = options.text("oformat");
  const bool rawBytes = options.flag("rawbytes");
  std::unique_ptr<consume::Sink> sink;
  if (format == "json") {
    sink = std::make_unique<JsonSink>(out);
  } else if (format == "folded") {
    sink = std::make_unique<FoldedSink>(out, err, quiet, rawBytes);
  } else {
    sink = std::make_unique<TextSink>(out, quiet, rawBytes);
  }
  if (const std::string path = options.text("flamegraph"); !path.empty()) {
    sink = std::make_unique<FlameGraphSink>(std::move(sink), path, commandLine);
  }
  if (const std::string address = options.text("metrics"); !address.empty()) {
    auto metrics = MetricsSink::create(std::move(sink), address, options.value("metricslimit"),
                                       options.text("metricslabels"), err);
    if (!metrics) return metrics.error();
    if (!quiet)
      std::fprintf(err, "dtrace: metrics on http://%s/metrics\n", (*metrics)->address().c_str());
    return std::unique_ptr<consume::Sink>(std::move(*metrics));
  }
  return sink;
}

}  // namespace dtrace::output
