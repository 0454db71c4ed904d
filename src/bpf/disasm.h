// Prints eBPF instructions the way the kernel verifier log and bpftool do,
// for `dtrace -S` and for test failure messages.
#pragma once

#include <functional>
#include <span>
#include <string>

#include "bpf/insn.h"

namespace dtrace::bpf {

struct DisasmOptions {
  // Text for the map referenced by a BPF_PSEUDO_MAP_FD / _VALUE load, given
  // the fd in the instruction. Default: "map[id:N]" when the fd is a live
  // map, else "map[fd:N]".
  std::function<std::string(int mapFd)> mapName;
  // Prefix each line with its instruction index ("   0: ").
  bool showIndex = true;
};

// One line per instruction (a 64-bit immediate load is one line that covers
// two slots), e.g. "   0: (bf) r6 = r1".
std::string disassemble(std::span<const Insn> insns, const DisasmOptions& options = {});

// The text of one instruction without index, e.g. "(bf) r6 = r1". `next` is
// the second slot of a 64-bit immediate load, or null.
std::string disassembleOne(const Insn& insn, const Insn* next, const DisasmOptions& options = {});

}  // namespace dtrace::bpf
