// The lines dtrace(1M) writes to stderr about faults and lost data, in
// DTrace's wording. None ends in a newline.
#pragma once

#include <cstdint>
#include <string>

#include "ir/program.h"

namespace dtrace::consume {

// "dtrace: error on enabled probe ID 3 (ID 412: syscall::read:entry):
//  invalid address (0x0) in action #1 at DIF offset 12". The probe is the
// faulting ECB's; a difOffset of UINT32_MAX leaves out the offset.
std::string formatFault(const ir::Program& program, const ir::FaultRecord& fault);

// "dtrace: 1234 drops on CPU 0" (singular for one drop).
std::string formatDrops(uint64_t n, int cpu);
// "dtrace: 5 aggregation drops on CPU 1"
std::string formatAggregationDrops(uint64_t n, int cpu);
// "dtrace: 5 dynamic variable drops"
std::string formatDynvarDrops(uint64_t n);
// "dtrace: 2 speculative drops"
std::string formatSpeculativeDrops(uint64_t n);
// "dtrace: 1 failed speculation (no speculative buffer available)"
std::string formatFailedSpeculations(uint64_t n);

}  // namespace dtrace::consume
