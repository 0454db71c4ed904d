// Kernel memory read with plain loads instead of helper calls. A kernel
// address the program holds as a number (bpf_get_current_task's, a raw
// tracepoint's pt_regs argument) becomes a typed, read-only pointer
// through the bpf_rdonly_cast kfunc, which the verifier turns into a
// register move; loads through it fault to 0 instead of oopsing. On this
// kind of machine a helper call costs 5 to 20 ns (bpf_get_current_task_btf
// the most), which is most of what a syscall probe adds to its call.
// A kernel without the kfunc (before 6.2) gets the helpers instead.
#pragma once

#include "bpf/assembler.h"

namespace dtrace::types {

// Whether the running kernel has bpf_rdonly_cast and `struct name` in its
// BTF (looked up once per name).
bool canCastForLoads(const char* structName);

// r0 = r1 as a read-only `struct structName *`; r1-r5 clobbered. Only
// where canCastForLoads(structName).
void castForLoads(bpf::Assembler& a, const char* structName);

// r0 = the current task, for loads of its members only (not to hand to a
// helper that takes a task: bpf_get_current_task_btf gives that one);
// r1-r5 clobbered.
void currentTaskForLoads(bpf::Assembler& a);

}  // namespace dtrace::types
