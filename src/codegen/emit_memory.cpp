// alloca(), copyin(), copyinto(), bcopy() and progenyof(). A D pointer is
// a 64-bit address. The alloca area at the end of the per-CPU scratch
// value is reset at every clause firing like DTrace's scratch space; it
// is the only memory the copying subroutines write.
#include "codegen/emitter.h"
#include "ir/subroutine.h"
#include "sema/checker.h"

namespace dtrace::codegen {

using namespace bpf;
using ast::Expr;

namespace {
constexpr uint32_t kMaxAncestors = 1024;  // progenyof() gives up beyond this depth
}  // namespace

void ProgramEmitter::resetAlloca() {
  if (layout_.allocaSize == 0) return;  // no clause allocates
  as_.emit(st(Size::DW, R9, static_cast<int16_t>(layout_.allocaUsedOffset), 0));
}

// r8 = the 8-aligned offset in the alloca area of r6 new bytes; afterwards
// the verifier knows r6 and r8 are at most the area size.
void ProgramEmitter::allocate(Reg size) {
  const int32_t areaSize = static_cast<int32_t>(layout_.allocaSize);
  Label full = as_.newLabel(), ok = as_.newLabel();
  const int16_t used = static_cast<int16_t>(layout_.allocaUsedOffset);
  as_.emit(ldx(Size::DW, R8, R9, used));
  as_.emit(alu64(BPF_ADD, R8, 7));
  as_.emit(alu64(BPF_AND, R8, -8));
  as_.jumpIf(BPF_JGT, R8, areaSize, full);
  as_.jumpIf(BPF_JGT, size, areaSize, full);
  as_.emit(mov64(R1, R8));
  as_.emit(alu64(BPF_ADD, R1, size));
  as_.jumpIf(BPF_JGT, R1, areaSize, full);
  as_.emit(stx(Size::DW, R9, used, R1));
  as_.jump(ok);
  as_.bind(full);
  fault(ir::Fault::NoScratch);
  as_.bind(ok);
}

// A char array member a translator defines by a string (psinfo_t's
// pr_psargs from execargs) has no bytes in memory to stand for: where its
// address is wanted (strlen(), an index, a cast to char *), the string is
// built in a subroutine area and copied into newly alloca'd scratch, which
// lasts the clause, as a string lives in DTrace's scratch. r6 = its address.
void ProgramEmitter::translatedStringAddress(const Expr& e) {
  const uint32_t size = e.type->size;
  const int32_t area = subrArea(0);
  subrDepth_++;
  stringInto(e, R9, area, size);
  subrDepth_--;
  as_.emit(mov64(R6, static_cast<int32_t>(size)));
  allocate(R6);
  as_.emit(mov64(R1, R9));
  as_.emit(alu64(BPF_ADD, R1, static_cast<int32_t>(layout_.allocaOffset)));
  as_.emit(alu64(BPF_ADD, R1, R8));
  as_.emit(mov64(R2, static_cast<int32_t>(size)));
  as_.emit(mov64(R3, R9));
  as_.emit(alu64(BPF_ADD, R3, area));
  as_.emit(bpf::call(BPF_FUNC_probe_read_kernel));
  scratchAddress();
  as_.emit(mov64(R6, R0));
  as_.emit(alu64(BPF_ADD, R6, static_cast<int32_t>(layout_.allocaOffset)));
  as_.emit(alu64(BPF_ADD, R6, R8));
}

// bcopy() and copyinto() write only this clause's scratch memory
// (illumos's DIF_SUBR_BCOPY and DIF_SUBR_COPYINTO check
// dtrace_inscratch), never D variables as stores may.
void ProgramEmitter::writableRange(Reg address, Reg size) {
  const int32_t areaSize = static_cast<int32_t>(layout_.allocaSize);
  Label bad = as_.newLabel(), ok = as_.newLabel();
  scratchAddress();
  as_.emit(mov64(R3, address));
  as_.emit(alu64(BPF_SUB, R3, R0));
  as_.emit(alu64(BPF_SUB, R3, static_cast<int32_t>(layout_.allocaOffset)));
  as_.jumpIf(BPF_JGT, R3, areaSize, bad);
  as_.jumpIf(BPF_JGT, size, areaSize, bad);
  as_.emit(mov64(R1, R3));
  as_.emit(alu64(BPF_ADD, R1, size));
  as_.emit(ldx(Size::DW, R2, R9, static_cast<int16_t>(layout_.allocaUsedOffset)));
  as_.jumpIf(BPF_JGT, R1, R2, bad);
  as_.emit(mov64(R0, R9));
  as_.emit(alu64(BPF_ADD, R0, static_cast<int32_t>(layout_.allocaOffset)));
  as_.emit(alu64(BPF_ADD, R0, R3));
  as_.jump(ok);
  as_.bind(bad);
  fault(ir::Fault::BadAddr, address);
  as_.bind(ok);
}

// A read of `size` bytes at r6 that lands in the alloca area, or just below
// it, must lie within what this clause allocated: as in DTrace, reading
// before the first allocation or past the last is an invalid address.
// Other memory (the kernel's, D variables) is not checked here.
void ProgramEmitter::readableScratch(uint32_t size) {
  if (layout_.allocaSize == 0) return;
  const auto below = static_cast<int32_t>(layout_.allocaUsedOffset);
  const auto neighbourhood = static_cast<int32_t>(layout_.scratchSize - layout_.allocaUsedOffset);
  Label ok = as_.newLabel(), bad = as_.newLabel();
  // r6 may still be a map pointer to the verifier: compare its number.
  const auto self = static_cast<int16_t>(layout_.selfAddressOffset);
  as_.emit(stx(Size::DW, R9, self, R6));
  as_.emit(ldx(Size::DW, R3, R9, self));
  scratchAddress();
  as_.emit(alu64(BPF_SUB, R3, R0));
  as_.emit(alu64(BPF_SUB, R3, below));
  as_.jumpIf(BPF_JGE, R3, neighbourhood, ok);
  as_.emit(
      alu64(BPF_SUB, R3, static_cast<int32_t>(layout_.allocaOffset - layout_.allocaUsedOffset)));
  as_.jumpIf(BPF_JGE, R3, neighbourhood, bad);  // below the first allocation
  as_.emit(alu64(BPF_ADD, R3, static_cast<int32_t>(size)));
  as_.emit(ldx(Size::DW, R2, R9, static_cast<int16_t>(layout_.allocaUsedOffset)));
  as_.jumpIf(BPF_JLE, R3, R2, ok);
  as_.bind(bad);
  fault(ir::Fault::BadAddr, R6);
  as_.bind(ok);
}

bool ProgramEmitter::memorySubroutine(const Expr& call) {
  using S = ir::Subroutine;
  if (!call.subroutine) return false;
  const S subr = *call.subroutine;
  auto& args = call.operands;
  auto addressOfArea = [&]() {  // r6 = the D address of alloca offset r8
    scratchAddress();
    as_.emit(mov64(R6, R0));
    as_.emit(alu64(BPF_ADD, R6, static_cast<int32_t>(layout_.allocaOffset)));
    as_.emit(alu64(BPF_ADD, R6, R8));
  };
  // Reads r2 bytes from the address in `from` into r1; a failed read is an
  // invalid address fault naming that address.
  auto copyFrom = [&](bool user, int16_t from) {
    Label ok = as_.newLabel();
    as_.emit(ldx(Size::DW, R3, R10, from));
    as_.emit(bpf::call(user ? BPF_FUNC_probe_read_user : BPF_FUNC_probe_read_kernel));
    as_.jumpIf(BPF_JEQ, R0, 0, ok);
    as_.emit(ldx(Size::DW, R6, R10, from));
    fault(ir::Fault::BadAddr, R6);
    as_.bind(ok);
  };
  switch (subr) {
    case S::Alloca: {
      operandValue(*args[0]);
      allocate(R6);
      addressOfArea();
      return true;
    }
    case S::Copyin: {  // copyin(uaddr, size): alloca(size) filled from user memory
      const int16_t from = pushSlot();
      operandValue(*args[0]);
      as_.emit(stx(Size::DW, R10, from, R6));
      operandValue(*args[1]);
      allocate(R6);
      as_.emit(mov64(R1, R9));
      as_.emit(alu64(BPF_ADD, R1, static_cast<int32_t>(layout_.allocaOffset)));
      as_.emit(alu64(BPF_ADD, R1, R8));
      as_.emit(mov64(R2, R6));
      copyFrom(true, from);
      popSlot();
      addressOfArea();
      return true;
    }
    case S::Copyinto:
    case S::Bcopy: {
      // copyinto(uaddr, size, dest); bcopy(src, dest, size) from kernel memory.
      const bool user = subr == S::Copyinto;
      const int16_t from = pushSlot(), to = pushSlot();
      if (args[0]->type->isString()) {  // a string is the address of its bytes
        operandInto(*args[0], 0);
        scratchAddress();
        as_.emit(mov64(R6, R0));
        as_.emit(alu64(BPF_ADD, R6, subrArea(0)));
      } else {
        operandValue(*args[0]);
      }
      as_.emit(stx(Size::DW, R10, from, R6));
      // The arguments run left to right (n++ in one is seen by the next).
      const int16_t size = pushSlot();
      operandValue(*args[1]);
      as_.emit(stx(Size::DW, R10, user ? size : to, R6));
      operandValue(*args[2]);
      as_.emit(stx(Size::DW, R10, user ? to : size, R6));
      as_.emit(ldx(Size::DW, R8, R10, size));
      popSlot();
      as_.emit(ldx(Size::DW, R6, R10, to));
      writableRange(R6, R8);
      as_.emit(mov64(R1, R0));
      as_.emit(mov64(R2, R8));
      copyFrom(user, from);
      popSlot();
      popSlot();
      as_.emit(mov64(R6, 0));
      return true;
    }
    case S::StringAddress: {  // a char pointer to a copy of a string
      const auto size = static_cast<int32_t>(layout_.stringTempSize);
      operandInto(*args[0], 0);
      as_.emit(mov64(R6, size));
      allocate(R6);
      as_.emit(mov64(R1, R9));
      as_.emit(alu64(BPF_ADD, R1, static_cast<int32_t>(layout_.allocaOffset)));
      as_.emit(alu64(BPF_ADD, R1, R8));
      as_.emit(mov64(R2, size));
      as_.emit(mov64(R3, R9));
      as_.emit(alu64(BPF_ADD, R3, subrArea(0)));
      as_.emit(bpf::call(BPF_FUNC_probe_read_kernel));
      addressOfArea();
      return true;
    }
    case S::Progenyof: {
      progenyOf(call);
      return true;
    }
    default:
      return false;
  }
}

// progenyof(pid): 1 when the current process is pid or descends from it,
// walking real_parent up to the task that is its own parent.
void ProgramEmitter::progenyOf(const Expr& call) {
  if (!memberOffset_) {
    fail("kernel type information is not available");
    return;
  }
  auto tgid = memberOffset_("task_struct", "tgid");
  auto parent = memberOffset_("task_struct", "real_parent");
  if (!tgid || !parent) {
    fail(!tgid ? tgid.error().message : parent.error().message);
    return;
  }
  enum { kTask, kPid, kFound };
  auto word = [this](int w) { return static_cast<int16_t>(loopState(w)); };
  operandValue(*call.operands[0]);
  normalize(R6, types_.intType());
  as_.emit(stx(Size::DW, R9, word(kPid), R6));
  as_.emit(st(Size::DW, R9, word(kFound), 0));
  contextTask();
  as_.emit(stx(Size::DW, R9, word(kTask), R0));
  const int32_t tgidOff = static_cast<int32_t>(*tgid), parentOff = static_cast<int32_t>(*parent);
  loop(kMaxAncestors, [this, word, tgidOff, parentOff](Label stop) {
    auto readField = [&](int32_t off, int32_t size) {  // r0 = 0 and fp-8 = task->field
      as_.emit(st(Size::DW, R10, -8, 0));
      as_.emit(mov64(R1, R10));
      as_.emit(alu64(BPF_ADD, R1, -8));
      as_.emit(mov64(R2, size));
      as_.emit(mov64(R3, R7));
      as_.emit(alu64(BPF_ADD, R3, off));
      as_.emit(bpf::call(BPF_FUNC_probe_read_kernel));
      as_.jumpIf(BPF_JNE, R0, 0, stop);
    };
    Label notIt = as_.newLabel();
    as_.emit(ldx(Size::DW, R7, R9, word(kTask)));
    readField(tgidOff, 4);
    as_.emit(ldx(Size::W, R1, R10, -8));
    as_.emit(ldx(Size::DW, R2, R9, word(kPid)));
    as_.jumpIf32(BPF_JNE, R1, R2, notIt);
    as_.emit(st(Size::DW, R9, word(kFound), 1));
    as_.jump(stop);
    as_.bind(notIt);
    readField(parentOff, 8);
    as_.emit(ldx(Size::DW, R1, R10, -8));
    as_.jumpIf(BPF_JEQ, R1, 0, stop);
    as_.jumpIf(BPF_JEQ, R1, R7, stop);  // the root is its own parent
    as_.emit(stx(Size::DW, R9, word(kTask), R1));
  });
  as_.emit(ldx(Size::DW, R6, R9, word(kFound)));
}

}  // namespace dtrace::codegen
