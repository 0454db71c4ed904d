// The sink the options ask for: -x oformat's format (text, json or
// folded), -x flamegraph's graph and -x metrics's endpoint besides it.
#pragma once

#include <cstdio>
#include <memory>
#include <string>

#include "consume/sink.h"
#include "util/option_table.h"
#include "util/result.h"

namespace dtrace::output {

// Whether the sink options (-x metrics, metricslabels) can be followed,
// checked before any probe is enabled.
Result<void> checkSinkOptions(const OptionTable& options);

// Data goes to `out`; the folded format's records go to `err`.
// `commandLine` names the flame graph.
Result<std::unique_ptr<consume::Sink>> makeSink(const OptionTable& options, FILE* out, FILE* err,
                                                bool quiet, const std::string& commandLine);

}  // namespace dtrace::output
