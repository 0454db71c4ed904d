// dtrace -l: the probes the descriptions name, listed as dtrace(1M)'s
// DMODE_LIST lists them.
#pragma once

#include <vector>

#include "driver/compiler.h"

namespace dtrace {

// Lists the probes of `units` (all probes when there are none), with their
// stability and argument types when `verbose` (-v). The compiler parses
// the descriptions and matches them as it does for tracing. Returns
// dtrace's exit status, having printed any message.
int listProbes(driver::Compiler& compiler, const std::vector<driver::SourceUnit>& units,
               bool verbose);

}  // namespace dtrace
