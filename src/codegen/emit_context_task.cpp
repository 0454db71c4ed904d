// The task a probe fires for. Almost always the current one (the helpers
// bpf_get_current_*), but sched:::on-cpu fires from sched_switch before
// the switch, on behalf of the thread about to run: there the task is a
// tracepoint argument, and pid, tid, execname, curthread, uid, gid and
// self-> variables are that thread's (Probe::contextTaskWord).
// Each leaves its result in r0 and clobbers r1-r5 only.
#include "codegen/emitter.h"
#include "types/readable_kernel_pointer.h"

namespace dtrace::codegen {

using namespace bpf;

namespace {
constexpr uint32_t kCommBytes = 16;  // TASK_COMM_LEN
}  // namespace

bool ProgramEmitter::hasContextTask() const { return probe_->contextTaskWord >= 0; }

void ProgramEmitter::currentTaskForLoads() {
  if (taskInSlot_) {
    as_.emit(ldx(Size::DW, R0, R10, kTaskSlot));
    return;
  }
  types::currentTaskForLoads(as_);
}

void ProgramEmitter::contextTask() {
  if (!hasContextTask()) {
    as_.emit(call(BPF_FUNC_get_current_task));
    return;
  }
  as_.emit(ldx(Size::DW, R0, R10, kCtxSlot));
  as_.emit(ldx(Size::DW, R0, R0, static_cast<int16_t>(8 * probe_->contextTaskWord)));
}

// Two adjacent 32-bit members of the context task's `pointer` member (or
// of the task itself when `pointer` is null), read as one word: low, then
// high, as bpf_get_current_pid_tgid and _uid_gid return them.
void ProgramEmitter::contextTaskPair(const char* pointerType, const char* pointer, const char* type,
                                     const char* low, const char* high) {
  const int32_t lowOffset = kernelOffset(type, low);
  if (kernelOffset(type, high) != lowOffset + 4) {
    fail(std::string("struct ") + type + " members " + low + " and " + high + " are not adjacent");
    return;
  }
  const int16_t slot = pushSlot();
  auto readWord = [&]() {  // r0 = the u64 at r0
    as_.emit(st(Size::DW, R10, slot, 0));
    as_.emit(mov64(R3, R0));
    as_.emit(mov64(R1, R10));
    as_.emit(alu64(BPF_ADD, R1, slot));
    as_.emit(mov64(R2, 8));
    as_.emit(call(BPF_FUNC_probe_read_kernel));
    as_.emit(ldx(Size::DW, R0, R10, slot));
  };
  contextTask();
  if (pointer) {
    as_.emit(alu64(BPF_ADD, R0, kernelOffset(pointerType, pointer)));
    readWord();
  }
  as_.emit(alu64(BPF_ADD, R0, lowOffset));
  readWord();
  popSlot();
}

void ProgramEmitter::contextPidTgid() {
  if (!hasContextTask() && types::canCastForLoads("task_struct")) {
    // The helper's (tgid << 32 | pid) from task->pid and task->tgid,
    // without its call, which costs 13 ns more here.
    currentTaskForLoads();
    as_.emit(ldx(Size::W, R1, R0, static_cast<int16_t>(kernelOffset("task_struct", "pid"))));
    as_.emit(ldx(Size::W, R0, R0, static_cast<int16_t>(kernelOffset("task_struct", "tgid"))));
    as_.emit(alu64(BPF_LSH, R0, 32));
    as_.emit(alu64(BPF_OR, R0, R1));
    return;
  }
  if (!hasContextTask()) {
    as_.emit(call(BPF_FUNC_get_current_pid_tgid));
    return;
  }
  contextTaskPair(nullptr, nullptr, "task_struct", "pid", "tgid");
}

void ProgramEmitter::contextUidGid() {
  if (!hasContextTask() && types::canCastForLoads("task_struct")) {
    // The helper's (gid << 32 | uid) from current->cred, by loads.
    currentTaskForLoads();
    as_.emit(ldx(Size::DW, R0, R0, static_cast<int16_t>(kernelOffset("task_struct", "cred"))));
    as_.emit(ldx(Size::W, R1, R0, static_cast<int16_t>(kernelOffset("cred", "uid"))));
    as_.emit(ldx(Size::W, R0, R0, static_cast<int16_t>(kernelOffset("cred", "gid"))));
    as_.emit(alu64(BPF_LSH, R0, 32));
    as_.emit(alu64(BPF_OR, R0, R1));
    return;
  }
  if (!hasContextTask()) {
    as_.emit(call(BPF_FUNC_get_current_uid_gid));
    return;
  }
  contextTaskPair("task_struct", "cred", "cred", "uid", "gid");
}

void ProgramEmitter::contextComm(Reg base, int32_t offset, uint32_t size) {
  if (!hasContextTask() && size == kCommBytes && offset % 8 == 0) {
    // The whole comm as two words read straight from the task (typed
    // loads, no helper): bpf_get_current_comm's strscpy_pad costs several
    // times more. The kernel keeps comm NUL-padded (__set_task_comm); the
    // last byte is cleared all the same, so a name torn by a concurrent
    // rename still ends within its field.
    const int32_t comm = kernelOffset("task_struct", "comm");
    currentTaskForLoads();
    as_.emit(ldx(Size::DW, R1, R0, static_cast<int16_t>(comm)));
    as_.emit(stx(Size::DW, base, static_cast<int16_t>(offset), R1));
    as_.emit(ldx(Size::DW, R1, R0, static_cast<int16_t>(comm + 8)));
    as_.emit(alu64(BPF_LSH, R1, 8));
    as_.emit(alu64(BPF_RSH, R1, 8));
    as_.emit(stx(Size::DW, base, static_cast<int16_t>(offset + 8), R1));
    return;
  }
  if (!hasContextTask()) {
    as_.emit(mov64(R1, base));
    as_.emit(alu64(BPF_ADD, R1, offset));
    as_.emit(mov64(R2, static_cast<int32_t>(size)));
    as_.emit(call(BPF_FUNC_get_current_comm));
    return;
  }
  contextTask();
  as_.emit(mov64(R3, R0));
  as_.emit(alu64(BPF_ADD, R3, kernelOffset("task_struct", "comm")));
  as_.emit(mov64(R1, base));
  as_.emit(alu64(BPF_ADD, R1, offset));
  as_.emit(mov64(R2, static_cast<int32_t>(size)));
  as_.emit(call(BPF_FUNC_probe_read_kernel_str));
}

}  // namespace dtrace::codegen
