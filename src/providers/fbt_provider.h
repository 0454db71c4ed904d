// The fbt provider, as far as this kernel allows: it has no kprobes and
// refuses fentry/fexit programs (EPERM under lockdown), so any description
// naming fbt fails with one clear message instead of matching nothing.
#pragma once

namespace dtrace::providers {

inline constexpr const char* kFbtUnavailable =
    "fbt provider is not available: this kernel refuses fentry/fexit programs (EPERM, "
    "lockdown) and has no kprobes";

}  // namespace dtrace::providers
