// The tables through which programs unwind user stacks of code built
// without frame pointers (ustack() by call frame information): one array
// of rows for every object dtrace has compiled the CFI of, and per
// process the mappings of those objects (driver/unwind_tables.h fills
// them; codegen/emit_unwind.cpp walks them).
#pragma once

#include <cstdint>

namespace dtrace::ir {

// How to find the caller of the code from `address` (the object's virtual
// address) up to the next row's (sym::CfiRow, packed): the canonical frame
// address is rsp or rbp plus cfaOffset, the return address is at CFA-8,
// the caller's rbp at CFA+bpOffset (0: unchanged).
struct UnwindRow {
  uint32_t address;
  int32_t cfaOffset;
  int16_t bpOffset;
  uint8_t rule;  // UnwindRule
  uint8_t unused;
};
static_assert(sizeof(UnwindRow) == 12);

enum UnwindRule : uint8_t {
  kUnwindSpOffset = 0,
  kUnwindBpOffset = 1,
  kUnwindSignalFrame = 2,  // registers from the ucontext at rsp (x86-64 rt_sigframe)
  kUnwindUnknown = 3,      // no usable CFI: follow the frame pointer
};

// One executable mapping of an object with CFI: addresses [start, end)
// are the object's plus `bias`; its rows are firstRow .. firstRow+rowCount.
struct UnwindMapping {
  uint64_t start;
  uint64_t end;
  uint64_t bias;
  uint32_t firstRow;
  uint32_t rowCount;
};
static_assert(sizeof(UnwindMapping) == 32);

inline constexpr uint32_t kUnwindMappingsPerProcess = 64;

// The value of a process's entry (keyed by its pid): its mappings with
// CFI, sorted by start.
struct UnwindProcess {
  uint32_t count;
  uint32_t unused;
  UnwindMapping mappings[kUnwindMappingsPerProcess];
};

// Offsets the program reads (x86-64 rt_sigframe: the ucontext at the
// signal trampoline's stack pointer, its registers at uc_mcontext).
inline constexpr int32_t kSignalContextRegisters = 40;  // offsetof(ucontext_t, uc_mcontext)
inline constexpr int32_t kSignalRbp = 10 * 8, kSignalRsp = 15 * 8, kSignalRip = 16 * 8;

}  // namespace dtrace::ir
