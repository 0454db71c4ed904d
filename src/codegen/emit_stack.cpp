// stack(), ustack() and jstack() records and keys, and the values of the
// symbol functions (sym, mod, usym, umod, uaddr, ...): program counters
// the consumer names later. User ones start with the process id
// (ir::kUserPidBytes), so that the consumer knows whose address space to
// read. Frames come from bpf_get_stack, which zero-fills what the stack
// does not reach (and the whole buffer when it fails: a kernel thread has
// no user stack), so an unused frame reads 0 as DTrace's consumer expects.
#include <algorithm>

#include "codegen/emitter.h"
#include "providers/uprobe_provider.h"

namespace dtrace::codegen {

using namespace bpf;
using ast::Expr;

void ProgramEmitter::codeAddressInto(const Expr& call, const ir::Field& field, Reg base,
                                     int32_t offset) {
  const bool user = ir::isUserCodeKind(field.kind);
  const int32_t pcs = offset + (user ? static_cast<int32_t>(ir::kUserPidBytes) : 0);
  // A key may hold more frames than this call takes (stack(5) and stack()
  // keys of one aggregation): the rest stays zero.
  const uint32_t pcBytes = std::min(field.size, call.type->size) - (user ? ir::kUserPidBytes : 0);
  switch (field.kind) {
    case ir::DataKind::KernelStack:
      kernelStackInto(base, pcs, pcBytes);
      break;
    case ir::DataKind::UserStack:
      if (maps_.unwindProcesses >= 0) {
        userStackByCfi(base, pcs, pcBytes);
        break;
      }
      as_.emit(mov64(R4, BPF_F_USER_STACK));
      getStack(base, pcs, pcBytes);
      if (probe_->atFunctionEntry) insertCallerFrame(base, pcs, pcBytes);
      break;
    default:  // a symbol function: its address argument
      value(*call.operands.at(0));
      as_.emit(stx(Size::DW, base, static_cast<int16_t>(pcs), R6));
      break;
  }
  if (user) {
    as_.emit(bpf::call(BPF_FUNC_get_current_pid_tgid));
    as_.emit(alu64(BPF_RSH, R0, 32));  // the thread group: the process
    as_.emit(stx(Size::DW, base, static_cast<int16_t>(offset), R0));
  }
}

// The kernel stack from the probe site, as stackFrame() counts frames: the
// probe's own machinery skipped, nothing in probes the consumer fires
// itself (BEGIN, END, tick-N). A profile probe's stack starts at the
// interrupted PC. Where the machinery is recognised by address, the stack
// is unwound once, machinery and all, into scratch, and copied to the
// field from the first frame past it.
void ProgramEmitter::kernelStackInto(Reg base, int32_t offset, uint32_t size) {
  const int machinery = machineryFrames();
  if (machinery < 0) {
    for (uint32_t off = 0; off < size; off += 8) {
      as_.emit(st(Size::DW, base, static_cast<int16_t>(offset + off), 0));
    }
    return;
  }
  if (machinery != kMachineryByAddress) {
    as_.emit(mov64(R4, machinery & BPF_F_SKIP_FIELD_MASK));
    getStack(base, offset, size);
    return;
  }
  const auto unwound = static_cast<int32_t>(layout_.kernelStackOffset);
  if (base == R6 || layout_.kernelStackSize < size + kMachineryScanFrames * 8) {
    fail("internal error: no scratch space for stack()");
    return;
  }
  as_.emit(mov64(R4, 0));
  getStack(R9, unwound, size + kMachineryScanFrames * 8);
  scanMachinery(R9, unwound, 0, false);  // r6 = the first frame past the machinery
  as_.emit(alu64(BPF_LSH, R6, 3));
  as_.emit(mov64(R1, R9));
  as_.emit(alu64(BPF_ADD, R1, unwound));
  as_.emit(alu64(BPF_ADD, R1, R6));
  as_.emit(mov64(R6, R1));
  copyFromAddress(base, offset, size);  // from scratch: it cannot fault
}

// At a function's first instruction the unwinder goes from the PC to the
// caller's caller: the frames after the first move up one, and the return
// address at the stack pointer becomes the second.
void ProgramEmitter::insertCallerFrame(Reg base, int32_t offset, uint32_t size) {
  const int32_t frames = static_cast<int32_t>(size / 8);
  if (frames < 2) return;
  for (int32_t k = frames - 1; k >= 2; k--) {
    as_.emit(ldx(Size::DW, R1, base, static_cast<int16_t>(offset + 8 * (k - 1))));
    as_.emit(stx(Size::DW, base, static_cast<int16_t>(offset + 8 * k), R1));
  }
  as_.emit(ldx(Size::DW, R3, R10, kCtxSlot));  // the user's registers
  as_.emit(ldx(Size::DW, R3, R3, providers::kUserStackPointer));
  as_.emit(mov64(R1, base));
  as_.emit(alu64(BPF_ADD, R1, offset + 8));
  as_.emit(mov64(R2, 8));
  as_.emit(bpf::call(BPF_FUNC_probe_read_user));
}

// bpf_get_stack(ctx, base + offset, size, r4): it zero-fills what the
// stack does not reach, and the whole buffer when it fails.
void ProgramEmitter::getStack(Reg base, int32_t offset, uint32_t size) {
  as_.emit(ldx(Size::DW, R1, R10, kCtxSlot));
  as_.emit(mov64(R2, base));
  as_.emit(alu64(BPF_ADD, R2, offset));
  as_.emit(mov64(R3, static_cast<int32_t>(size)));
  as_.emit(bpf::call(BPF_FUNC_get_stack));
}

}  // namespace dtrace::codegen
