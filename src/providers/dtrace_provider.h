// The dtrace provider: BEGIN, END and ERROR. They fire through uprobes on
// marker functions in this binary, which the consumer calls at the right
// moments, so their output is ordered correctly around all other records.
#pragma once

#include <cstdint>
#include <memory>

#include "providers/provider.h"

extern "C" {
// Uprobe targets; never inlined or merged, and kept even if unused.
__attribute__((noinline, used)) void dtrace_marker_begin(void);
__attribute__((noinline, used)) void dtrace_marker_end(void);
__attribute__((noinline, used)) void dtrace_marker_error(uint64_t a0, uint64_t a1, uint64_t a2,
                                                         uint64_t a3, uint64_t a4, uint64_t a5);
}

namespace dtrace::providers {

std::unique_ptr<Provider> makeDtraceProvider();

// Fire dtrace:::BEGIN, END, ERROR (in the calling thread).
void fireBegin();
void fireEnd();
// ERROR's arguments as illumos passes them: arg1 = EPID, arg2 = action
// index, arg3 = DIF offset (or -1), arg4 = fault, arg5 = fault value.
void fireError(uint64_t a0, uint64_t epid, uint64_t action, uint64_t difOffset, uint64_t fault,
               uint64_t faultValue);

// Byte offsets of the argument registers in x86-64 `struct pt_regs`, the
// context of uprobe programs.
namespace ptregs {
inline constexpr int16_t kRdi = 112, kRsi = 104, kRdx = 96, kRcx = 88, kR8 = 72, kR9 = 64;
inline constexpr int16_t kIp = 128, kCs = 136, kSp = 152;
}  // namespace ptregs

}  // namespace dtrace::providers
