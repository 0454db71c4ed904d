// BTF function records for programs with subprograms. The verifier insists
// on them ("missing btf func_info") once a program passes a callback to a
// helper such as bpf_loop: every subprogram needs a FUNC type at its first
// instruction.
#pragma once

#include <linux/bpf.h>

#include <span>
#include <vector>

#include "bpf/insn.h"
#include "util/fd.h"
#include "util/result.h"

namespace dtrace::bpf {

struct SubprogramBtf {
  Fd btf;                               // invalid when the program needs none
  std::vector<bpf_func_info> funcInfo;  // one per subprogram, by first instruction
};

// Finds the subprograms (targets of local calls and of callback addresses)
// and, when the program takes a callback's address, loads a BTF object that
// describes each as a static function.
Result<SubprogramBtf> describeSubprograms(std::span<const Insn> insns);

}  // namespace dtrace::bpf
