// The dtrace command line, options table, preprocessor and target processes
// live in the library (src/util, src/proc) so they can be unit-tested; the
// command includes them from here.
#pragma once

#include "proc/target.h"
#include "util/command_line.h"
#include "util/option_table.h"
#include "util/preprocess.h"
