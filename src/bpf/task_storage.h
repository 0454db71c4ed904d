// The call sequences that find a task's value in a task-storage map
// (BPF_MAP_TYPE_TASK_STORAGE): the helper wants a trusted task pointer,
// as bpf_get_current_task_btf() or a BTF-typed tracepoint gives.
#pragma once

#include "bpf/assembler.h"

namespace dtrace::bpf {

// r0 = the current task's value in the map `mapFd`, created (zeroed) first
// when `create`; 0 when there is none or it could not be created.
// Clobbers r1-r5.
void currentTaskStorage(Assembler& a, int mapFd, bool create);
// The same for the trusted task pointer in r2 (a BTF-typed tracepoint's).
void taskStorage(Assembler& a, int mapFd, bool create);

}  // namespace dtrace::bpf
