// Where a function of this very process lives on disk, so that a uprobe can
// be placed on it. Unused today (BEGIN/END/ERROR and tick-N run their
// programs directly); kept for a pid provider tracing dtrace itself.
#pragma once

#include <cstdint>
#include <string>

#include "util/result.h"

namespace dtrace::providers {

struct UprobeTarget {
  std::string path;     // the mapped file holding the function
  uint64_t fileOffset;  // address - mapping start + mapping file offset
};

Result<UprobeTarget> locateOwnFunction(const void* function);

}  // namespace dtrace::providers
