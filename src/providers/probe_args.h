// Which probe types args[] for a probe description, by DTrace's rule
// (dt_probe_info): the probe it matches, or the first of several when the
// provider promises that all probes it could match share their arguments.
#pragma once

#include <vector>

#include "parse/ast.h"
#include "providers/probe.h"

namespace dtrace::providers {

// The probe args[] takes its types from, among `matched` (the probes `spec`
// matches, in id order); null when there is none or the set is unstable.
const Probe* argsProbe(const ast::ProbeSpec& spec, const std::vector<const Probe*>& matched);

}  // namespace dtrace::providers
