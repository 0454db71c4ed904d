// -S: one probe's eBPF program, laid out as Oracle's Linux DTrace lists its
// BPF code (libdtrace dt_dis.c: "Disassembly of clause ...", then one line
// per instruction slot with its index, byte offset and fields), in the
// instruction syntax of the kernel verifier's log.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "bpf/insn.h"

namespace dtrace::driver {

// A clause the program runs: its description as written, four fields
// (":::BEGIN", "syscall::read:entry"), and its number in the program text.
struct ListedClause {
  std::string description;
  size_t number;
};

// `heading` names the program ("dtrace:::BEGIN (probe ID 1)");
// `clauseStarts` holds where each of `clauses` starts, then where the code
// after the last one starts (codegen::ProgramEmitter::clauseStarts).
std::string formatProgramListing(const std::string& heading, std::span<const bpf::Insn> insns,
                                 const std::vector<size_t>& clauseStarts,
                                 const std::vector<ListedClause>& clauses);

}  // namespace dtrace::driver
