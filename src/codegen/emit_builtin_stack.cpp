// caller, ucaller, stackdepth and ustackdepth from bpf_get_stack.
//
// A kernel stack taken in a raw-tracepoint program starts inside the BPF
// machinery (the program, bpf_trace_runN, the tracepoint's __bpf_trace stub
// and, while another callback shares the tracepoint, its __traceiter
// iterator); those frames are skipped, so frame 0 is the PC at which the
// kernel fired the probe (for a syscall entry, in syscall_trace_enter):
// `caller`, the PC just before entering the probe, as the Guide defines it.
// Which machinery frames are present changes while tracing runs, so the
// program recognises them by address (providers/tracepoint_machinery.h).
// A profile probe's stack starts at the interrupted PC, and `caller` is the
// frame above it, as in illumos for unanchored probes. Probes the consumer
// or a timer thread runs itself (BEGIN, END, ERROR, tick-N) have no kernel
// context of their own: caller and stackdepth are 0 there.
#include <algorithm>

#include "codegen/emitter.h"
#include "providers/provider.h"

namespace dtrace::codegen {

using namespace bpf;

namespace {

// Frames bpf_get_stack reports above a raw tracepoint's call site when
// their addresses are unknown: the BPF program (a tail call reuses its
// caller's frame), bpf_trace_runN and the tracepoint's __bpf_trace stub.
constexpr int kRawTracepointFrames = 3;
constexpr int kMachineryScan = static_cast<int>(kMachineryScanFrames);
// Frames counted per bpf_get_stack call in stackDepth.
constexpr int kDepthChunk = 16;

}  // namespace

int ProgramEmitter::machineryFrames() {
  switch (probe_->attachKind) {
    case providers::AttachKind::Consumer:
    case providers::AttachKind::Timer:
      return -1;
    case providers::AttachKind::PerfEvent:
    case providers::AttachKind::Uprobe:
      return 0;
    case providers::AttachKind::Tracepoint:
    case providers::AttachKind::SyscallDispatch:
      if (probe_->progType != BPF_PROG_TYPE_RAW_TRACEPOINT) return 0;
      return machineryRanges().empty() ? kRawTracepointFrames : kMachineryByAddress;
  }
  return -1;
}

const std::vector<providers::AddressRange>& ProgramEmitter::machineryRanges() {
  if (!machineryRanges_) {
    const std::string tracepoint = probe_->owner ? probe_->owner->rawTracepoint(*probe_) : "";
    machineryRanges_ = tracepoint.empty() ? std::vector<providers::AddressRange>{}
                                          : providers::tracepointMachinery(tracepoint);
  }
  return *machineryRanges_;
}

// Looks through the first kMachineryScan frames of the kernel stack for the
// first one outside the tracepoint machinery, at index i. r6 = the PC
// `frame` frames above it (wantPc), or i; 0 if there is none.
void ProgramEmitter::skipMachinery(int frame, bool wantPc) {
  const int slots = kMachineryScan + (wantPc ? frame : 0);
  int16_t buffer = 0;
  for (int i = 0; i < slots; i++) buffer = pushSlot();  // the lowest slot starts it
  Label done = as_.newLabel();
  as_.emit(ldx(Size::DW, R1, R10, kCtxSlot));
  as_.emit(mov64(R2, R10));
  as_.emit(alu64(BPF_ADD, R2, buffer));
  as_.emit(mov64(R3, slots * 8));
  as_.emit(mov64(R4, 0));
  as_.emit(call(BPF_FUNC_get_stack));  // zero-fills what the stack does not reach
  as_.emit(mov64(R6, 0));
  as_.jumpIf(BPF_JSLT, R0, 0, done);
  scanMachinery(R10, buffer, frame, wantPc);
  as_.bind(done);
  for (int i = 0; i < slots; i++) popSlot();
}

// Frames unwound at base+offset: r6 = the PC `frame` frames above the
// first of them outside the tracepoint machinery (wantPc), or that first
// one's index; 0 when the first kMachineryScan are all machinery.
void ProgramEmitter::scanMachinery(Reg base, int32_t offset, int frame, bool wantPc) {
  Label done = as_.newLabel();
  as_.emit(mov64(R6, 0));
  for (int i = 0; i < kMachineryScan; i++) {
    Label machinery = as_.newLabel();
    as_.emit(ldx(Size::DW, R1, base, static_cast<int16_t>(offset + i * 8)));
    for (const providers::AddressRange& range : machineryRanges()) {
      Label outside = as_.newLabel();
      as_.emit(ldImm64(R2, range.start));
      as_.jumpIf(BPF_JLT, R1, R2, outside);
      as_.emit(ldImm64(R2, range.end - 1));
      as_.jumpIf(BPF_JLE, R1, R2, machinery);
      as_.bind(outside);
    }
    if (wantPc) {
      as_.emit(ldx(Size::DW, R6, base, static_cast<int16_t>(offset + (i + frame) * 8)));
    } else {
      as_.emit(mov64(R6, i));
    }
    as_.jump(done);
    as_.bind(machinery);
  }
  as_.bind(done);
}

// r6 = the PC of one stack frame: `frame` counted from the probe site for
// the kernel stack (from the user PC for the user stack), 0 if the stack is
// not that deep.
void ProgramEmitter::stackFrame(bool user, int frame) {
  int skip = frame;
  if (!user) {
    const int machinery = machineryFrames();
    if (machinery < 0) {
      constant(0);
      return;
    }
    if (machinery == kMachineryByAddress) {
      skipMachinery(frame, true);
      return;
    }
    skip += machinery;
    if (probe_->attachKind == providers::AttachKind::PerfEvent) skip++;  // above the interrupted PC
  }
  const int16_t slot = pushSlot();
  Label done = as_.newLabel();
  as_.emit(st(Size::DW, R10, slot, 0));
  as_.emit(ldx(Size::DW, R1, R10, kCtxSlot));
  as_.emit(mov64(R2, R10));
  as_.emit(alu64(BPF_ADD, R2, slot));
  as_.emit(mov64(R3, 8));
  as_.emit(mov64(R4, (skip & BPF_F_SKIP_FIELD_MASK) | (user ? BPF_F_USER_STACK : 0)));
  as_.emit(call(BPF_FUNC_get_stack));
  as_.emit(mov64(R6, 0));
  as_.jumpIf(BPF_JNE, R0, 8, done);
  as_.emit(ldx(Size::DW, R6, R10, slot));
  as_.bind(done);
  popSlot();
}

// r6 = the number of frames. bpf_get_stack copies at most the frames its
// buffer holds, so the count is taken a stack-slot buffer at a time,
// skipping the frames already counted, until a call comes back short.
void ProgramEmitter::stackDepth(bool user) {
  int machinery = user ? 0 : machineryFrames();
  if (machinery < 0) {
    constant(0);
    return;
  }
  // Machinery found by address: count every frame, then take those away.
  const bool subtract = machinery == kMachineryByAddress;
  const int16_t machineryCount = subtract ? pushSlot() : 0;
  if (subtract) {
    skipMachinery(0, false);
    as_.emit(stx(Size::DW, R10, machineryCount, R6));
    machinery = 0;
  }
  int16_t buffer = 0;
  for (int i = 0; i < kDepthChunk; i++) buffer = pushSlot();  // the lowest slot starts it
  Label done = as_.newLabel();
  as_.emit(mov64(R6, 0));
  const int limit = static_cast<int>(std::min<uint32_t>(layout_.runtime.stackDepthLimit, 4096));
  for (int counted = 0; counted < limit; counted += kDepthChunk) {
    as_.emit(ldx(Size::DW, R1, R10, kCtxSlot));
    as_.emit(mov64(R2, R10));
    as_.emit(alu64(BPF_ADD, R2, buffer));
    as_.emit(mov64(R3, kDepthChunk * 8));
    as_.emit(
        mov64(R4, ((machinery + counted) & BPF_F_SKIP_FIELD_MASK) | (user ? BPF_F_USER_STACK : 0)));
    as_.emit(call(BPF_FUNC_get_stack));
    as_.jumpIf(BPF_JSLT, R0, 0, done);  // fewer frames than were skipped
    as_.emit(alu64(BPF_RSH, R0, 3));
    as_.emit(alu64(BPF_ADD, R6, R0));
    as_.jumpIf(BPF_JLT, R0, kDepthChunk, done);
  }
  as_.bind(done);
  // Counted a buffer at a time: no more than the limit (maxframes).
  Label within = as_.newLabel();
  as_.jumpIf(BPF_JLE, R6, limit, within);
  as_.emit(mov64(R6, limit));
  as_.bind(within);
  for (int i = 0; i < kDepthChunk; i++) popSlot();
  if (subtract) {
    as_.emit(ldx(Size::DW, R1, R10, machineryCount));
    as_.emit(alu64(BPF_SUB, R6, R1));
    popSlot();
  }
}

}  // namespace dtrace::codegen
