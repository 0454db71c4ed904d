// Actions done in probe context (raise, stop, chill), tracemem(), printm()
// and print(). The consumer-side actions (system, freopen, ftruncate) only
// record their arguments, as printf does.
#include <csignal>

#include "codegen/emitter.h"

namespace dtrace::codegen {

using namespace bpf;
using ast::Expr;

namespace {

// Linux's highest signal number (_NSIG): raise() of a larger number (or a
// negative one) is an illegal operation, as DTrace faults at NSIG.
constexpr int32_t kHighestSignal = 64;

// illumos' chill() budget: at most 500 ms of chilling per CPU in any
// interval of one second; asking for more is an illegal operation.
constexpr int32_t kChillIntervalNs = 1000000000;
constexpr int32_t kChillMaxNs = 500000000;

}  // namespace

// The signal goes to the current process (bpf_send_signal), delivered
// when it next returns to user mode, as DTrace delivers it. The kernel
// refuses kernel threads, exiting tasks and init: as in DTrace, a signal
// that cannot be delivered is simply not sent.
void ProgramEmitter::signalAction(const Expr& call) {
  if (call.text == "stop") {
    as_.emit(mov64(R1, SIGSTOP));  // stop() stops the process; SIGCONT resumes it
    as_.emit(bpf::call(BPF_FUNC_send_signal));
    return;
  }
  Label done = as_.newLabel(), valid = as_.newLabel();
  value(*call.operands[0]);
  as_.jumpIf(BPF_JEQ, R6, 0, done);  // signal 0: nothing to send
  as_.jumpIf(BPF_JLE, R6, kHighestSignal, valid);
  fault(ir::Fault::IllOp);
  as_.bind(valid);
  as_.emit(mov64(R1, R6));
  as_.emit(bpf::call(BPF_FUNC_send_signal));
  as_.bind(done);
}

// chill(ns): spins for ns nanoseconds. Each CPU keeps the start of its
// current one-second interval and the time chilled in it (at chillOffset
// in its scratch value); a chill beyond the budget, or negative, faults.
void ProgramEmitter::chillAction(const Expr& call) {
  const int16_t mark = static_cast<int16_t>(layout_.chillOffset);
  const int16_t chilled = static_cast<int16_t>(layout_.chillOffset + 8);
  if (layout_.chillOffset == 0) {
    fail("internal error: no scratch space for chill()");
    return;
  }
  value(*call.operands[0]);
  as_.emit(stx(Size::DW, R9, static_cast<int16_t>(loopState(1)), R6));
  as_.emit(bpf::call(BPF_FUNC_ktime_get_ns));
  as_.emit(stx(Size::DW, R9, static_cast<int16_t>(loopState(0)), R0));

  Label sameInterval = as_.newLabel();
  as_.emit(ldx(Size::DW, R1, R9, mark));
  as_.emit(mov64(R2, R0));
  as_.emit(alu64(BPF_SUB, R2, R1));
  as_.jumpIf(BPF_JLE, R2, kChillIntervalNs, sameInterval);
  as_.emit(stx(Size::DW, R9, mark, R0));
  as_.emit(st(Size::DW, R9, chilled, 0));
  as_.bind(sameInterval);

  Label allowed = as_.newLabel(), over = as_.newLabel();
  as_.emit(ldx(Size::DW, R1, R9, chilled));
  as_.emit(mov64(R2, R1));
  as_.emit(alu64(BPF_ADD, R2, R6));
  as_.jumpIf(BPF_JSGT, R2, kChillMaxNs, over);
  as_.jumpIf(BPF_JSGE, R2, R1, allowed);  // below what was chilled: negative or overflow
  as_.bind(over);
  fault(ir::Fault::IllOp);
  as_.bind(allowed);
  as_.emit(stx(Size::DW, R9, chilled, R2));
  busyWait();
  // timestamp is read afresh after a chill, as DTrace's chill() makes it.
  as_.emit(st(Size::DW, R10, kTimestampSlot, 0));
}

// bpf_loop bounds a loop's iterations (2^23), each of which reads the
// clock once: nesting one loop in another lets the deadline, never the
// bound, end the wait.
void ProgramEmitter::busyWait() {
  auto deadlinePassed = [this](Label stop) {
    as_.emit(bpf::call(BPF_FUNC_ktime_get_ns));
    as_.emit(ldx(Size::DW, R1, R9, static_cast<int16_t>(loopState(0))));
    as_.emit(alu64(BPF_SUB, R0, R1));
    as_.emit(ldx(Size::DW, R1, R9, static_cast<int16_t>(loopState(1))));
    as_.jumpIf(BPF_JSGE, R0, R1, stop);
  };
  loop(1u << 23, [this, deadlinePassed](Label stop) {
    loop(1u << 23, deadlinePassed);
    deadlinePassed(stop);
  });
}

// tracemem(addr, size[, dynsize]) and printm(size, addr): `size` bytes of
// kernel (or scratch) memory into the record; with dynsize, only the first
// dynsize of them are read and printed (0, or more than size, means all of
// them, as in DTrace). An unreadable address is an invalid address fault.
void ProgramEmitter::tracememAction(const Expr& address, const Expr* dynamicSize,
                                    const ir::Action& action, int32_t data) {
  const ir::Field& bytes = action.fields.at(0);
  const auto size = static_cast<int32_t>(bytes.size);
  const bool dynamic = dynamicSize != nullptr;
  if (dynamic) {  // evaluated first, as DTrace records it first: an action of its own
    value(*dynamicSize);
    as_.emit(stx(Size::DW, R9, static_cast<int16_t>(data + action.fields[1].offset), R6));
    actionIndex_ = firstAction_ + 1;
  }
  value(address);  // an array stands for its address
  if (dynamic) {
    Label whole = as_.newLabel(), have = as_.newLabel();
    as_.emit(ldx(Size::DW, R2, R9, static_cast<int16_t>(data + action.fields[1].offset)));
    as_.jumpIf(BPF_JEQ, R2, 0, whole);
    as_.jumpIf(BPF_JGT, R2, size, whole);
    as_.jump(have);
    as_.bind(whole);
    as_.emit(mov64(R2, size));
    as_.bind(have);
  } else {
    as_.emit(mov64(R2, size));
  }
  as_.emit(mov64(R1, R9));
  as_.emit(alu64(BPF_ADD, R1, data + static_cast<int32_t>(bytes.offset)));
  as_.emit(mov64(R3, R6));
  as_.emit(bpf::call(BPF_FUNC_probe_read_kernel));
  Label ok = as_.newLabel();
  as_.jumpIf(BPF_JEQ, R0, 0, ok);
  fault(ir::Fault::BadAddr, R6);
  as_.bind(ok);
}

// print(p) of a pointer records the address and the object it points to
// (an unreadable one is an invalid address fault); print(v) of any other
// value records the value, as trace() does.
void ProgramEmitter::printAction(const Expr& call, const ir::Action& action, int32_t data) {
  const Expr& arg = *call.operands[0];
  if (action.fields.size() == 1) {
    storeField(arg, action.fields[0], R9, data);
    return;
  }
  value(arg);
  as_.emit(stx(Size::DW, R9, static_cast<int16_t>(data + action.fields[0].offset), R6));
  copyFromAddress(R9, data + static_cast<int32_t>(action.fields[1].offset), action.fields[1].size);
}

}  // namespace dtrace::codegen
