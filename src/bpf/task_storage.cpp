#include "bpf/task_storage.h"

namespace dtrace::bpf {

void currentTaskStorage(Assembler& a, int mapFd, bool create) {
  a.emit(call(BPF_FUNC_get_current_task_btf));
  a.emit(mov64(R2, R0));
  taskStorage(a, mapFd, create);
}

void taskStorage(Assembler& a, int mapFd, bool create) {
  a.emit(ldMapFd(R1, mapFd));
  a.emit(mov64(R3, 0));
  a.emit(mov64(R4, create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0));
  a.emit(call(BPF_FUNC_task_storage_get));
}

}  // namespace dtrace::bpf
