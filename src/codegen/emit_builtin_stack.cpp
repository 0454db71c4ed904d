// caller, ucaller, stackdepth and ustackdepth from bpf_get_stack.
//
// A kernel stack taken in a raw-tracepoint program starts inside the BPF
// machinery (the program, bpf_trace_run, the tracepoint's __bpf_trace
// stub); those frames are skipped, so frame 0 is the PC at which the kernel
// fired the probe (for a syscall entry, in syscall_trace_enter): `caller`,
// the PC just before entering the probe, as the Guide defines it. A
// profile probe's stack starts at the interrupted PC, and `caller` is the
// frame above it, as in illumos for unanchored probes. Probes the consumer
// or a timer thread runs itself (BEGIN, END, ERROR, tick-N) have no kernel
// context of their own: caller and stackdepth are 0 there.
#include "codegen/emitter.h"

namespace dtrace::codegen {

using namespace bpf;

namespace {

// Frames bpf_get_stack reports above a raw tracepoint's call site: the BPF
// program (a tail call reuses its caller's frame), bpf_trace_run and the
// tracepoint's __bpf_trace stub.
constexpr int kRawTracepointFrames = 3;
// Frames counted per bpf_get_stack call in stackDepth, and the most the
// kernel ever reports (the perf_event_max_stack default).
constexpr int kDepthChunk = 16;
constexpr int kMaxStackFrames = 127;

}  // namespace

int ProgramEmitter::machineryFrames() const {
  switch (probe_->attachKind) {
    case providers::AttachKind::Consumer:
    case providers::AttachKind::Timer:
      return -1;
    case providers::AttachKind::PerfEvent:
    case providers::AttachKind::Uprobe:
      return 0;
    case providers::AttachKind::Tracepoint:
    case providers::AttachKind::SyscallDispatch:
      return probe_->progType == BPF_PROG_TYPE_RAW_TRACEPOINT ? kRawTracepointFrames : 0;
  }
  return -1;
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
  const int machinery = user ? 0 : machineryFrames();
  if (machinery < 0) {
    constant(0);
    return;
  }
  int16_t buffer = 0;
  for (int i = 0; i < kDepthChunk; i++) buffer = pushSlot();  // the lowest slot starts it
  Label done = as_.newLabel();
  as_.emit(mov64(R6, 0));
  for (int counted = 0; counted < kMaxStackFrames; counted += kDepthChunk) {
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
  for (int i = 0; i < kDepthChunk; i++) popSlot();
}

}  // namespace dtrace::codegen
