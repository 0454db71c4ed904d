// An object's call frame information compiled into compact unwind rows:
// the BPF user-stack unwinder looks up, for each frame's PC, the last row
// at or below it to find the caller's frame in code built without frame
// pointers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "util/result.h"

namespace dtrace::sym {

// How to find the caller of code at an address, on x86-64: the canonical
// frame address (CFA, the caller's stack pointer) is a register plus an
// offset; the return address is at CFA-8; the caller's rbp is saved at
// CFA+bpOffset, or unchanged (bpOffset 0).
struct CfiRow {
  // First address the row covers (the object's virtual addresses, as in its
  // ELF symbols); it covers up to the next row's address.
  uint64_t address = 0;
  enum class Rule : uint8_t {
    SpOffset,     // CFA = rsp + cfaOffset
    BpOffset,     // CFA = rbp + cfaOffset
    SignalFrame,  // a signal trampoline (the FDE's 'S' augmentation): registers come from the
                  // ucontext at rsp
    Unknown,      // no usable CFI here (a gap between FDEs, an unsupported CFA expression or
                  // register, a return address not at CFA-8): fall back to frame pointers
  } rule = Rule::Unknown;
  int32_t cfaOffset = 0;
  int32_t bpOffset = 0;

  bool operator==(const CfiRow&) const = default;
};

// The rows of an object's .eh_frame, and of its .debug_frame when present
// (its own, or in a separate debug file found as elfutils finds them:
// build-id or debuglink under /usr/lib/debug), sorted strictly by address,
// adjacent rows with equal rules merged, gaps between FDEs covered by
// Unknown rows, and an Unknown row where the last FDE ends: so the last
// row at or below a PC is always right, and a PC below the first row has
// no CFI. Where both sections describe a function, .eh_frame's FDE is used
// (it is what the running code was built with; .debug_frame only fills in
// functions it lacks).
// Empty when the object has no CFI; an error when `path` cannot be read
// as an ELF object (a missing file, an empty file, a file that is not ELF).
Result<std::vector<CfiRow>> compileCfi(const std::string& path);

}  // namespace dtrace::sym
