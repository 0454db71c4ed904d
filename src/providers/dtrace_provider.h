// The dtrace provider: BEGIN, END and ERROR. They are never attached: the
// consumer runs their programs itself (bpf::Program::run, BPF_PROG_RUN) at
// the right moments, so their output is ordered correctly around all other
// records, and enabling them costs nothing at start-up or exit.
#pragma once

#include <cstdint>
#include <memory>

#include "providers/provider.h"

namespace dtrace::providers {

std::unique_ptr<Provider> makeDtraceProvider();

// The probes' programs are BPF_PROG_TYPE_RAW_TRACEPOINT: their context is
// the u64 array given to run(), and argN is its element N. ERROR passes
// what illumos passes: arg0 = 0, arg1 = EPID, arg2 = action index, arg3 =
// DIF offset (or -1), arg4 = fault, arg5 = fault address or value.
inline constexpr int kDtraceProbeArgs = 6;

}  // namespace dtrace::providers
