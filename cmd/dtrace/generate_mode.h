// dtrace -h and -G on the command line: which files to write and the
// usage messages illumos dtrace gives; the work is in src/probegen.
#pragma once

#include <vector>

#include "driver/compiler.h"
#include "util/command_line.h"
#include "util/option_table.h"

namespace dtrace {

// Runs -h or -G for `units` (the scripts, already preprocessed with -C)
// and returns dtrace's exit status, having printed any message.
int runProbeGeneration(const cli::CommandLine& commandLine,
                       const std::vector<driver::SourceUnit>& units, const OptionTable& options);

}  // namespace dtrace
