// The sdt provider: every kernel tracepoint, named as Oracle Linux DTrace
// names them (sdt:CATEGORY::EVENT, from tracefs's available_events), run
// by raw-tracepoint programs. args[] are the tracepoint's own arguments
// (its TP_PROTO, typed from BTF), not the fields of its trace record.
// Probes running the same clauses share one program, which tells them
// apart by the attach cookie.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "providers/provider.h"
#include "types/tracepoint_prototype.h"

namespace dtrace::providers {

std::unique_ptr<Provider> makeSdtProvider();

// Categories of available_events that are not tracepoints of their own:
// the syscall provider's, and probes other tracers made (kprobes, uprobes).
bool isSdtCategory(std::string_view category);

// args[] of a raw tracepoint: each parameter of its prototype, a 64-bit
// context word (argN), typed as the prototype types it (args[N]).
std::vector<ArgSource> rawTracepointArgs(const std::vector<types::TracepointParam>& params);

}  // namespace dtrace::providers
