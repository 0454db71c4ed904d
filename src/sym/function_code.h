// The machine code of one function, decoded by Capstone: the instruction
// boundaries where a pid offset probe may go, and the instructions where
// the function returns (its return probes), as DTrace's pid provider
// places them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "util/result.h"

namespace dtrace::sym {

struct FunctionCode {
  // The offset from the function's start of every instruction, in order,
  // and whether a uprobe can be placed on it (uprobeCanTrap).
  std::vector<uint32_t> instructions;
  std::vector<bool> trappable;
  // The offsets of the instructions that leave the function for its
  // caller: every `ret`, and every jump whose target lies outside the
  // function (a tail call returns on the callee's behalf).
  std::vector<uint32_t> returns;
  // Those that are `ret` instructions, where the return value is in rax
  // (at a tail call it is not yet).
  std::vector<uint32_t> rets;
  // Decoding stopped before the function's end (bytes no instruction
  // starts with: data, or padding the decoder does not know).
  bool truncated = false;
};

// Whether Linux can place a uprobe on the x86-64 instruction at `code`:
// the kernel refuses LOCK-prefixed instructions, VEX- and EVEX-encoded ones
// (AVX), hlt, port I/O and software interrupts, among the opcodes it
// cannot single-step out of line. (Refusals this misses are still found
// when attaching.)
bool uprobeCanTrap(const uint8_t* code, size_t size);

// Reads the first bytes of the code at `fileOffset` of `path` and answers
// uprobeCanTrap for them; false when they cannot be read.
bool uprobeCanTrapAt(const std::string& path, uint64_t fileOffset);

// Decodes the `size` bytes at `fileOffset` of the x86-64 object at `path`,
// where the function starts at virtual address `address`.
Result<FunctionCode> decodeFunction(const std::string& path, uint64_t fileOffset, uint64_t address,
                                    uint64_t size);

// The same, for bytes already read.
FunctionCode decodeFunctionBytes(const uint8_t* code, size_t size, uint64_t address);

}  // namespace dtrace::sym
