// The pid provider: pidPID:module:function:entry, :return and :OFFSET,
// the fasttrap semantics of DTrace on uprobes. A probe's sites are found
// from the object's symbols (elfutils) and its machine code (Capstone):
// entry at the function's first byte, return at each instruction that
// leaves the function, an offset at an instruction boundary.
#pragma once

#include <memory>

#include "providers/provider.h"

namespace dtrace::providers {

// Makes pidN providers as descriptions name them.
std::unique_ptr<ProviderFamily> makePidProviderFamily();

// For descriptions that name a provider followed by a process ID (pid123,
// python123): the ID, 0 when the name does not end in digits (or is all
// digits), -1 when it ends in an ID that is no valid one (pid0).
int providerProcessId(std::string_view provider);

}  // namespace dtrace::providers
