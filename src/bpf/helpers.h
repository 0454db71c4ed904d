// Names of BPF helper functions (BPF_FUNC_*), for the disassembler and for
// messages that mention a helper.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace dtrace::bpf {

// "ringbuf_output" for BPF_FUNC_ringbuf_output; empty if the id is unknown
// to the headers we were built with.
std::string_view helperName(int32_t helperId);

// The inverse: BPF_FUNC_* id for a name without the "bpf_" prefix.
std::optional<int32_t> helperId(std::string_view name);

}  // namespace dtrace::bpf
