// Tiny hand-assembled programs shared by the kernel tests.
#pragma once

#include <unistd.h>

#include <vector>

#include "bpf/assembler.h"

namespace dtrace::bpf::testing {

// r0 = the value at key 0 of an array map, or NULL (the u32 key on the
// stack at -4).
inline void lookupKeyZero(Assembler& a, int mapFd) {
  a.emit(st(Size::W, R10, -4, 0));
  a.emit(mov64(R2, R10));
  a.emit(alu64(BPF_ADD, R2, -4));
  a.emit(ldMapFd(R1, mapFd));
  a.emit(call(BPF_FUNC_map_lookup_elem));
}

// Adds one to the u64 at key 0 of an array map, for events of this process.
inline std::vector<Insn> countingProgram(int mapFd) {
  Assembler a;
  Label out = a.newLabel();
  a.emit(call(BPF_FUNC_get_current_pid_tgid));
  a.emit(alu64(BPF_RSH, R0, 32));
  a.jumpIf(BPF_JNE, R0, static_cast<int32_t>(getpid()), out);
  lookupKeyZero(a, mapFd);
  a.jumpIf(BPF_JEQ, R0, 0, out);
  a.emit(mov64(R1, 1));
  a.emit(atomicAdd64(R0, 0, R1));
  a.bind(out);
  a.emit(mov64(R0, 0));
  a.emit(exit());
  return a.finish().value();
}

}  // namespace dtrace::bpf::testing
