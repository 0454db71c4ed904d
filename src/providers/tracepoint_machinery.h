// Where the kernel's raw-tracepoint machinery lives in kernel text, so that
// a program can tell its own call chain (the BPF program, bpf_trace_runN,
// the tracepoint's __bpf_trace stub and, while more than one callback is
// registered on the tracepoint, its __traceiter iterator) from the frame
// that fired the probe. Which of those frames a stack holds changes at run
// time as other tracers attach to the same tracepoint, so a fixed frame
// count cannot skip them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dtrace::providers {

struct AddressRange {
  uint64_t start = 0, end = 0;  // [start, end)
};

// The address ranges whose frames belong to the machinery of raw tracepoint
// `tracepoint`: those functions, and everything outside kernel text (BPF
// programs are JIT-compiled there). Empty when /proc/kallsyms does not give
// the addresses (kptr_restrict, or a kernel without those symbols).
std::vector<AddressRange> tracepointMachinery(const std::string& tracepoint);

}  // namespace dtrace::providers
