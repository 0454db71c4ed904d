// -x flamegraph=FILE: when tracing ends, the first aggregation with a
// stack in its keys as an interactive SVG flame graph (docs/OUTPUT.md),
// besides whatever the format prints.
#pragma once

#include <memory>
#include <string>

#include "output/forwarding_sink.h"

namespace dtrace::output {

class FlameGraphSink : public ForwardingSink {
 public:
  // `commandLine`: dtrace's, for the graph's subtitle.
  FlameGraphSink(std::unique_ptr<consume::Sink> format, std::string path, std::string commandLine)
      : ForwardingSink(std::move(format)),
        path_(std::move(path)),
        commandLine_(std::move(commandLine)) {}

  Result<void> tracingEnded(consume::AggregationTables& tables) override;

 private:
  Result<void> write(const consume::AggregationPrint& request);

  std::string path_;
  std::string commandLine_;
};

}  // namespace dtrace::output
