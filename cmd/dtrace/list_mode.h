// dtrace -l: the probes the descriptions name, listed as dtrace(1M)'s
// DMODE_LIST lists them.
#pragma once

#include <vector>

#include "driver/session.h"
#include "sema/symbols.h"

namespace dtrace {

// Lists the probes of `units` (all probes when there are none), with their
// stability and argument types when `verbose` (-v); `macroTable` gives the
// macro arguments, unused ones refused unless `argref`. Returns dtrace's
// exit status, having printed any message.
int listProbes(driver::Session& session, const std::vector<driver::SourceUnit>& units, bool verbose,
               const sema::MacroTable& macroTable, bool argref);

}  // namespace dtrace
