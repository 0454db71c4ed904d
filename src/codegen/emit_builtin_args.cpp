// execargs (FreeBSD DTrace's built-in; psinfo_t's pr_psargs on Linux): the
// current process's argument strings as one string, the NULs between them
// made blanks, as ps(1) shows them. Linux keeps them only in the process's
// memory (mm->arg_start to mm->arg_end), which probe context can read while
// that address space is loaded and its pages are resident: a process that
// has just exec'd (proc:::exec-success) or is making a system call reads.
// Elsewhere (a kernel thread, another process's view in sched:::on-cpu,
// pages not resident) the result is the command name, as Linux's own
// /proc/PID/cmdline falls back when the arguments cannot be read.
#include "codegen/emitter.h"

namespace dtrace::codegen {

using namespace bpf;

namespace {

constexpr int kLengthWord = 0;  // loop state: the bytes read, NUL included

}  // namespace

void ProgramEmitter::processArguments(Reg base, int32_t offset, uint32_t size) {
  if (joinDepth_ >= layout_.joinLevels) {
    fail("execargs is nested too deeply in strjoin( ) calls");
    return;
  }
  const uint32_t n = layout_.stringTempSize;
  const int32_t area = static_cast<int32_t>(layout_.joinOffset + joinDepth_ * 3 * n);
  const int32_t mmOffset = kernelOffset("task_struct", "mm");
  const int32_t argStart = kernelOffset("mm_struct", "arg_start");
  const int32_t argEnd = kernelOffset("mm_struct", "arg_end");
  if (!error_.empty() || n < 2) return;

  Label command = as_.newLabel(), done = as_.newLabel();
  // The arguments are in the task's own address space: read only when the
  // task this probe describes is the one whose memory is loaded.
  contextTask();
  as_.emit(mov64(R8, R0));
  readKernelWord(R8, R8, mmOffset);
  as_.jumpIf(BPF_JEQ, R8, 0, command);  // a kernel thread
  as_.emit(call(BPF_FUNC_get_current_task));
  as_.emit(mov64(R6, R0));
  readKernelWord(R6, R6, mmOffset);
  as_.jumpIf(BPF_JNE, R6, R8, command);
  // r8 = where the arguments start, r6 = their bytes, NULs included (the
  // destination's base register, maybe r7, is kept).
  readKernelWord(R6, R8, argEnd);
  readKernelWord(R8, R8, argStart);
  as_.emit(alu64(BPF_SUB, R6, R8));
  as_.jumpIf(BPF_JSLE, R6, 0, command);
  Label bounded = as_.newLabel();
  as_.jumpIf(BPF_JLE, R6, static_cast<int32_t>(n - 1), bounded);
  as_.emit(mov64(R6, static_cast<int32_t>(n - 1)));  // as many as a string holds
  as_.bind(bounded);
  as_.emit(stx(Size::DW, R9, static_cast<int16_t>(loopState(kLengthWord)), R6));
  as_.emit(mov64(R1, R9));
  as_.emit(alu64(BPF_ADD, R1, area));
  as_.emit(mov64(R2, R6));
  as_.emit(mov64(R3, R8));
  as_.emit(call(BPF_FUNC_probe_read_user));
  as_.jumpIf(BPF_JNE, R0, 0, command);  // not resident
  // NULs inside become blanks; the string ends after the bytes read.
  as_.emit(ldx(Size::DW, R1, R9, static_cast<int16_t>(loopState(kLengthWord))));
  as_.jumpIf(BPF_JGE, R1, static_cast<int32_t>(n), command);  // for the verifier
  as_.emit(alu64(BPF_ADD, R1, R9));
  as_.emit(st(Size::B, R1, static_cast<int16_t>(area), 0));
  joinDepth_++;  // the area stays ours while the callback is generated
  loop(n - 1, [this, area, n](Label stop) {
    as_.emit(ldx(Size::DW, R1, R9, static_cast<int16_t>(loopState(kLengthWord))));
    as_.emit(alu64(BPF_SUB, R1, 1));  // the last argument's own NUL stays
    as_.jumpIf(BPF_JGE, R6, R1, stop);
    as_.jumpIf(BPF_JGE, R6, static_cast<int32_t>(n), stop);
    as_.emit(mov64(R2, R9));
    as_.emit(alu64(BPF_ADD, R2, R6));
    as_.emit(ldx(Size::B, R3, R2, static_cast<int16_t>(area)));
    Label keep = as_.newLabel();
    as_.jumpIf(BPF_JNE, R3, 0, keep);
    as_.emit(st(Size::B, R2, static_cast<int16_t>(area), ' '));
    as_.bind(keep);
  });
  joinDepth_--;
  as_.emit(mov64(R3, R9));
  as_.emit(alu64(BPF_ADD, R3, area));
  as_.emit(mov64(R1, base));
  as_.emit(alu64(BPF_ADD, R1, offset));
  as_.emit(mov64(R2, static_cast<int32_t>(size)));
  as_.emit(call(BPF_FUNC_probe_read_kernel_str));
  as_.jump(done);
  as_.bind(command);
  contextComm(base, offset, std::min<uint32_t>(size, 16));
  as_.bind(done);
}

}  // namespace dtrace::codegen
