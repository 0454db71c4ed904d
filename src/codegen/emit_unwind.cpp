// ustack() through code built without frame pointers: the program walks
// the caller chain itself, frame by frame in a bpf_loop, with the rows
// dtrace compiled from each object's call frame information
// (ir/unwind_table.h). For each frame's PC it finds the process's
// mapping of the object, then the object's last row at or below the PC
// (two binary searches), and from the row the caller's stack pointer (the
// CFA), return address and rbp. A PC without a row (JIT code, an object
// without CFI) follows the frame pointer, as bpf_get_stack does; a process
// without tables gets bpf_get_stack's frames.
#include <algorithm>

#include "codegen/emitter.h"
#include "ir/runtime.h"
#include "ir/unwind_table.h"

namespace dtrace::codegen {

using namespace bpf;

namespace {

// The unwinder's state, in loop-state words.
enum UnwindState {
  kPc,
  kSp,
  kBp,
  kReturned,  // kPc is a return address (look up the call before it)
  kPid,
  kObjectAddress,  // the PC in the object's addresses
  kFirstRow,
  kDepth,  // frames walked
};

constexpr int kMappingSearchSteps = 7;  // kUnwindMappingsPerProcess < 2^7
constexpr int kRowSearchSteps = 25;     // an object's rows < 2^25
// The most frames ustackdepth walks, whatever maxframes says (as
// stackDepth() bounds its count).
constexpr uint32_t kUnwindDepthLimit = 4096;

// x86-64 struct pt_regs.
constexpr int16_t kRegsBp = 32, kRegsIp = 128, kRegsCs = 136, kRegsSp = 152;

constexpr int16_t kMappingsAt = offsetof(ir::UnwindProcess, mappings);

}  // namespace

void ProgramEmitter::userStackByCfi(Reg base, int32_t offset, uint32_t size) {
  const auto area = static_cast<int32_t>(layout_.userStackOffset);
  if (area == 0 || layout_.userStackSize < size) {
    fail("internal error: no scratch space for ustack()");
    return;
  }
  Label framePointers = as_.newLabel(), done = as_.newLabel();
  for (uint32_t at = 0; at < size; at += 8) {
    as_.emit(st(Size::DW, R9, static_cast<int16_t>(area + at), 0));
  }
  unwindUser(size / 8, area, framePointers);
  for (uint32_t at = 0; at < size; at += 8) {
    as_.emit(ldx(Size::DW, R1, R9, static_cast<int16_t>(area + at)));
    as_.emit(stx(Size::DW, base, static_cast<int16_t>(offset + at), R1));
  }
  as_.jump(done);
  as_.bind(framePointers);
  as_.emit(mov64(R4, BPF_F_USER_STACK));
  getStack(base, offset, size);
  if (probe_->atFunctionEntry) insertCallerFrame(base, offset, size);
  as_.bind(done);
}

void ProgramEmitter::userCallerByCfi() {
  const auto area = static_cast<int32_t>(layout_.userStackOffset);
  if (area == 0 || layout_.userStackSize < 16) {
    fail("internal error: no scratch space for ucaller");
    return;
  }
  Label framePointers = as_.newLabel(), done = as_.newLabel();
  as_.emit(st(Size::DW, R9, static_cast<int16_t>(area + 8), 0));
  unwindUser(2, area, framePointers);
  as_.emit(ldx(Size::DW, R6, R9, static_cast<int16_t>(area + 8)));
  as_.jump(done);
  as_.bind(framePointers);
  stackFrame(true, 1);
  as_.bind(done);
}

void ProgramEmitter::userDepthByCfi() {
  Label framePointers = as_.newLabel(), done = as_.newLabel();
  // As far as ustack() may print: maxframes (the kernel's
  // perf_event_max_stack unless set).
  const auto limit = std::min<uint32_t>(layout_.runtime.stackDepthLimit, kUnwindDepthLimit);
  unwindUser(std::max<uint32_t>(limit, 1), -1, framePointers);
  as_.jump(done);
  as_.bind(framePointers);
  stackDepth(true);
  as_.bind(done);
}

// Walks the current thread's user stack, at most `frames` frames, writing
// their PCs at scratch offset `area` (none when it is negative); r6 = the
// frames walked. The process's mappings are looked up once, and handed to
// each iteration through the loop's context. Jumps to `noTables` for a process without unwind
// tables, or a thread that did not come from user mode.
void ProgramEmitter::unwindUser(uint32_t frames, int32_t area, Label noTables) {
  if (layout_.loopStateOffset == 0) {
    fail("internal error: no scratch space for the user stack unwinder");
    return;
  }
  auto state = [this](int word) { return static_cast<int16_t>(loopState(word)); };
  as_.emit(call(BPF_FUNC_get_current_pid_tgid));
  as_.emit(alu64(BPF_RSH, R0, 32));
  as_.emit(stx(Size::DW, R9, state(kPid), R0));
  // The user registers, saved as the thread entered the kernel (a uprobe's
  // trap, a system call, the interrupt a profile probe fires in).
  as_.emit(call(BPF_FUNC_get_current_task_btf));
  as_.emit(mov64(R1, R0));
  as_.emit(call(BPF_FUNC_task_pt_regs));
  as_.emit(ldx(Size::DW, R1, R0, kRegsCs));
  as_.emit(alu64(BPF_AND, R1, 3));
  as_.jumpIf(BPF_JEQ, R1, 0, noTables);  // not from user mode: no user stack
  as_.emit(ldx(Size::DW, R1, R0, kRegsIp));
  as_.emit(stx(Size::DW, R9, state(kPc), R1));
  as_.emit(ldx(Size::DW, R1, R0, kRegsSp));
  as_.emit(stx(Size::DW, R9, state(kSp), R1));
  as_.emit(ldx(Size::DW, R1, R0, kRegsBp));
  as_.emit(stx(Size::DW, R9, state(kBp), R1));
  as_.emit(st(Size::DW, R9, state(kReturned), 0));
  as_.emit(st(Size::DW, R9, state(kDepth), 0));
  // The process's mappings, handed to every iteration.
  Label untabled = as_.newLabel(), walked = as_.newLabel();
  as_.emit(ldx(Size::DW, R1, R9, state(kPid)));
  lookUpByKey(maps_.unwindProcesses, R1, untabled);
  loopPassing(R0, frames, [this, area, frames](Label stop) { unwindFrame(area, frames, stop); });
  as_.emit(ldx(Size::DW, R6, R9, state(kDepth)));
  as_.jump(walked);
  // Unknown to the tables: dtrace is told (ir::Counters::unwindWanted).
  as_.bind(untabled);
  lookupCounters(noTables);
  as_.emit(ldx(Size::DW, R1, R9, state(kPid)));
  as_.emit(stx(Size::DW, R0, offsetof(ir::Counters, unwindWanted), R1));
  as_.jump(noTables);
  as_.bind(walked);
}

// One iteration (r6 = the frame's index): records the PC, then steps to
// the caller; `stop` ends the stack.
void ProgramEmitter::unwindFrame(int32_t area, uint32_t frames, Label stop) {
  auto state = [this](int word) { return static_cast<int16_t>(loopState(word)); };
  as_.emit(ldx(Size::DW, R7, R2, 8));  // the process's mappings (loopPassing)
  Label framePointer = as_.newLabel(), signalFrame = as_.newLabel(), step = as_.newLabel();
  Label stepped = as_.newLabel();
  as_.jumpIf(BPF_JGE, R6, static_cast<int32_t>(frames), stop);
  as_.emit(ldx(Size::DW, R1, R9, state(kPc)));
  as_.jumpIf(BPF_JEQ, R1, 0, stop);
  if (area >= 0) {
    as_.emit(mov64(R2, R6));
    as_.emit(alu64(BPF_LSH, R2, 3));
    as_.emit(alu64(BPF_ADD, R2, R9));
    as_.emit(stx(Size::DW, R2, static_cast<int16_t>(area), R1));
  }
  as_.emit(mov64(R2, R6));
  as_.emit(alu64(BPF_ADD, R2, 1));
  as_.emit(stx(Size::DW, R9, state(kDepth), R2));

  // r8 = the address to look up: a return address is looked up at the call.
  as_.emit(mov64(R8, R1));
  as_.emit(ldx(Size::DW, R1, R9, state(kReturned)));
  as_.emit(alu64(BPF_SUB, R8, R1));

  // The mapping: the last whose start is at or below r8 (r1 = low, r2 = high).
  constexpr auto kMappings = static_cast<int32_t>(ir::kUnwindMappingsPerProcess);
  Label searched = as_.newLabel();
  as_.emit(mov64(R1, 0));
  as_.emit(ldx(Size::W, R2, R7, offsetof(ir::UnwindProcess, count)));
  Label counted = as_.newLabel();
  as_.jumpIf(BPF_JLE, R2, kMappings, counted);
  as_.emit(mov64(R2, kMappings));
  as_.bind(counted);
  for (int i = 0; i < kMappingSearchSteps; i++) {
    Label higher = as_.newLabel(), next = as_.newLabel();
    as_.jumpIf(BPF_JGE, R1, R2, searched);
    as_.emit(mov64(R3, R1));
    as_.emit(alu64(BPF_ADD, R3, R2));
    as_.emit(alu64(BPF_RSH, R3, 1));
    as_.jumpIf(BPF_JGE, R3, kMappings, framePointer);
    as_.emit(mov64(R4, R3));
    as_.emit(alu64(BPF_LSH, R4, 5));  // sizeof(UnwindMapping)
    as_.emit(alu64(BPF_ADD, R4, R7));
    as_.emit(ldx(Size::DW, R4, R4, kMappingsAt + offsetof(ir::UnwindMapping, start)));
    as_.jumpIf(BPF_JLE, R4, R8, higher);
    as_.emit(mov64(R2, R3));
    as_.jump(next);
    as_.bind(higher);
    as_.emit(mov64(R1, R3));
    as_.emit(alu64(BPF_ADD, R1, 1));
    as_.bind(next);
  }
  as_.bind(searched);
  as_.jumpIf(BPF_JEQ, R1, 0, framePointer);
  as_.emit(alu64(BPF_SUB, R1, 1));
  as_.jumpIf(BPF_JGE, R1, kMappings, framePointer);
  as_.emit(alu64(BPF_LSH, R1, 5));
  as_.emit(alu64(BPF_ADD, R1, R7));
  as_.emit(ldx(Size::DW, R2, R1, kMappingsAt + offsetof(ir::UnwindMapping, end)));
  as_.jumpIf(BPF_JGE, R8, R2, framePointer);
  as_.emit(ldx(Size::DW, R2, R1, kMappingsAt + offsetof(ir::UnwindMapping, bias)));
  as_.emit(alu64(BPF_SUB, R8, R2));
  as_.emit(stx(Size::DW, R9, state(kObjectAddress), R8));
  as_.emit(ldx(Size::W, R2, R1, kMappingsAt + offsetof(ir::UnwindMapping, firstRow)));
  as_.emit(ldx(Size::W, R3, R1, kMappingsAt + offsetof(ir::UnwindMapping, rowCount)));
  as_.emit(stx(Size::DW, R9, state(kFirstRow), R2));
  // r7 = low, r8 = high: callee-saved, they outlive each lookup.
  as_.emit(mov64(R7, R2));
  as_.emit(mov64(R8, R2));
  as_.emit(alu64(BPF_ADD, R8, R3));

  // The row: the last whose address is at or below the object address.
  auto lookUpRow = [this](Reg index, Label missing) {
    lookUpByKey(maps_.unwindRows, index, missing);
  };
  auto middle = [this] {  // r1 = (low + high) / 2
    as_.emit(mov64(R1, R7));
    as_.emit(alu64(BPF_ADD, R1, R8));
    as_.emit(alu64(BPF_RSH, R1, 1));
  };
  Label rowFound = as_.newLabel();
  for (int i = 0; i < kRowSearchSteps; i++) {
    Label higher = as_.newLabel(), next = as_.newLabel();
    as_.jumpIf(BPF_JGE, R7, R8, rowFound);
    middle();
    lookUpRow(R1, framePointer);
    as_.emit(ldx(Size::W, R1, R0, offsetof(ir::UnwindRow, address)));
    as_.emit(ldx(Size::DW, R2, R9, state(kObjectAddress)));
    as_.jumpIf(BPF_JLE, R1, R2, higher);
    middle();
    as_.emit(mov64(R8, R1));
    as_.jump(next);
    as_.bind(higher);
    middle();
    as_.emit(mov64(R7, R1));
    as_.emit(alu64(BPF_ADD, R7, 1));
    as_.bind(next);
  }
  as_.bind(rowFound);
  as_.emit(ldx(Size::DW, R1, R9, state(kFirstRow)));
  as_.jumpIf(BPF_JLE, R7, R1, framePointer);  // below the object's first row
  as_.emit(alu64(BPF_SUB, R7, 1));
  lookUpRow(R7, framePointer);
  // r7 = the rule, r8 = the CFA's offset, r3 = where rbp was saved.
  as_.emit(ldx(Size::B, R7, R0, offsetof(ir::UnwindRow, rule)));
  as_.emit(ldx(Size::W, R8, R0, offsetof(ir::UnwindRow, cfaOffset)));
  as_.emit(alu64(BPF_LSH, R8, 32));
  as_.emit(alu64(BPF_ARSH, R8, 32));
  as_.emit(ldx(Size::H, R3, R0, offsetof(ir::UnwindRow, bpOffset)));
  as_.emit(alu64(BPF_LSH, R3, 48));
  as_.emit(alu64(BPF_ARSH, R3, 48));
  as_.jumpIf(BPF_JEQ, R7, ir::kUnwindSignalFrame, signalFrame);
  Label fromSp = as_.newLabel();
  as_.jumpIf(BPF_JEQ, R7, ir::kUnwindSpOffset, fromSp);
  as_.jumpIf(BPF_JNE, R7, ir::kUnwindBpOffset, framePointer);
  as_.emit(ldx(Size::DW, R1, R9, state(kBp)));
  as_.emit(alu64(BPF_ADD, R8, R1));
  as_.jump(step);
  as_.bind(fromSp);
  as_.emit(ldx(Size::DW, R1, R9, state(kSp)));
  as_.emit(alu64(BPF_ADD, R8, R1));
  as_.jump(step);

  // No row: the frame pointer's frame (CFA = rbp + 16, rbp saved at rbp).
  as_.bind(framePointer);
  as_.emit(ldx(Size::DW, R8, R9, state(kBp)));
  as_.jumpIf(BPF_JEQ, R8, 0, stop);
  as_.emit(alu64(BPF_ADD, R8, 16));
  as_.emit(mov64(R3, -16));

  // r8 = the CFA, r3 = rbp's place from it (0: unchanged). The caller's
  // frame is above this one: a CFA at or below the stack pointer ends the
  // walk (a corrupt or foreign stack).
  as_.bind(step);
  as_.emit(ldx(Size::DW, R1, R9, state(kSp)));
  as_.jumpIf(BPF_JLE, R8, R1, stop);
  as_.emit(stx(Size::DW, R9, state(kSp), R8));
  Label bpKept = as_.newLabel();
  as_.jumpIf(BPF_JEQ, R3, 0, bpKept);
  as_.emit(alu64(BPF_ADD, R3, R8));
  readUserWord(kBp, R3, 0);
  as_.bind(bpKept);
  readUserWord(kPc, R8, -8);
  as_.jumpIf(BPF_JNE, R0, 0, stop);
  as_.emit(st(Size::DW, R9, state(kReturned), 1));
  as_.jump(stepped);

  // A signal trampoline: the interrupted registers are in the ucontext at
  // the stack pointer; the PC is the interrupted instruction itself.
  as_.bind(signalFrame);
  as_.emit(ldx(Size::DW, R8, R9, state(kSp)));
  as_.emit(alu64(BPF_ADD, R8, ir::kSignalContextRegisters));
  const std::pair<int, int32_t> saved[] = {
      {kPc, ir::kSignalRip}, {kSp, ir::kSignalRsp}, {kBp, ir::kSignalRbp}};
  for (const auto& [word, at] : saved) {
    readUserWord(word, R8, at);
    as_.jumpIf(BPF_JNE, R0, 0, stop);
  }
  as_.emit(st(Size::DW, R9, state(kReturned), 0));
  as_.bind(stepped);
}

// r0 = the element of `mapFd` whose key is `key`'s value; `missing` when
// there is none.
void ProgramEmitter::lookUpByKey(int mapFd, Reg key, Label missing) {
  const int16_t slot = pushSlot();
  as_.emit(stx(Size::DW, R10, slot, key));
  as_.emit(ldMapFd(R1, mapFd));
  as_.emit(mov64(R2, R10));
  as_.emit(alu64(BPF_ADD, R2, slot));
  as_.emit(call(BPF_FUNC_map_lookup_elem));
  popSlot();
  as_.jumpIf(BPF_JEQ, R0, 0, missing);
}

// The unwinder's state word `word` = the user word at `address` +
// `displacement`; r0 = the read's result (0 when it read).
void ProgramEmitter::readUserWord(int word, Reg address, int32_t displacement) {
  as_.emit(mov64(R3, address));
  if (displacement != 0) as_.emit(alu64(BPF_ADD, R3, displacement));
  as_.emit(mov64(R1, R9));
  as_.emit(alu64(BPF_ADD, R1, static_cast<int32_t>(loopState(word))));
  as_.emit(mov64(R2, 8));
  as_.emit(call(BPF_FUNC_probe_read_user));
}

}  // namespace dtrace::codegen
