// The profile provider: profile-N fires on every CPU at N Hz (or once per
// interval with a unit suffix), tick-N fires on one CPU.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "providers/provider.h"
#include "util/result.h"

namespace dtrace::providers {

struct ProfileRate {
  bool tick = false;      // tick-N (one CPU) rather than profile-N (every CPU)
  uint64_t periodNs = 0;  // interval between firings
};

// Parses "profile-97", "tick-1s", "tick-10ms", "profile-1001hz" by DTrace's
// rules: a number, then an optional unit (ns nsec us usec ms msec s sec m min
// h hour d day hz, any case); a bare number is Hz. Intervals shorter than
// 200us (5000 Hz) are refused, as DTrace refuses them.
Result<ProfileRate> parseProfileName(std::string_view name);

// The names illumos lists before any are asked for.
const std::vector<std::string>& defaultProfileNames();

std::unique_ptr<Provider> makeProfileProvider();

}  // namespace dtrace::providers
