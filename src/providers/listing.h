// `dtrace -l` output: the probe table and, with -v, each probe's stability
// attributes and argument types, formatted exactly as illumos dtrace(1M).
#pragma once

#include <string>
#include <vector>

#include "providers/probe.h"
#include "providers/provider.h"

namespace dtrace::providers {

std::string formatProbeListHeader();
std::string formatProbeListLine(const Probe& probe);
// The -v block that follows a probe's line (describes its arguments first
// if that has not been done yet).
std::string formatProbeInfo(const Probe& probe);
// The same block with the description and argument attributes given (those
// dtrace_probe_info() computes for the description that named the probe).
std::string formatProbeInfo(const Probe& probe, const Attribute& description,
                            const Attribute& arguments);

// Header, then one line per probe (each followed by its -v block if verbose).
std::string formatProbeList(const std::vector<const Probe*>& probes, bool verbose);

}  // namespace dtrace::providers
