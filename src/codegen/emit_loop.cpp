// Byte loops as bpf_loop callbacks. A plain loop makes the verifier walk
// every iteration on every path; a callback is checked as one body. Loop
// state lives in the scratch map value (loopState), whose contents the
// verifier never tracks, so the body converges after one walk.
#include "codegen/emitter.h"

namespace dtrace::codegen {

using namespace bpf;

int32_t ProgramEmitter::loopState(int word) const {
  return static_cast<int32_t>(layout_.loopStateOffset) + 8 * word;
}

void ProgramEmitter::loop(uint32_t iterations, std::function<void(Label stop)> body) {
  loopPassing(R9, iterations, std::move(body));
}

void ProgramEmitter::loopPassing(Reg passed, uint32_t iterations,
                                 std::function<void(Label stop)> body) {
  if (layout_.loopStateOffset == 0) {  // computeLayout's scan must know every user
    fail("internal error: no scratch space for bpf_loop state");
    return;
  }
  Label callback = as_.newLabel();
  const int16_t extra = pushSlot();  // `passed`, above the scratch pointer
  as_.emit(stx(Size::DW, R10, extra, passed));
  const int16_t ctx = pushSlot();  // the scratch pointer, for the callback
  if (ctx + 8 != extra) {
    fail("internal error: bpf_loop context slots apart");
    return;
  }
  as_.emit(stx(Size::DW, R10, ctx, R9));
  as_.emit(mov64(R1, static_cast<int32_t>(std::min<uint32_t>(iterations, 1u << 23))));
  as_.loadFunction(R2, callback);
  as_.emit(mov64(R3, R10));
  as_.emit(alu64(BPF_ADD, R3, ctx));
  as_.emit(mov64(R4, 0));
  as_.emit(call(BPF_FUNC_loop));
  popSlot();
  popSlot();
  callbacks_.push_back({callback, std::move(body), CallbackKind::Loop});
}

void ProgramEmitter::emitCallbacks() {
  taskInSlot_ = false;  // a callback's stack frame is its own
  // A body may itself start loops: emit until none is left.
  for (size_t i = 0; i < callbacks_.size(); i++) {
    auto [entry, body, kind] = callbacks_[i];
    Label stop = as_.newLabel();
    as_.bind(entry);
    if (kind == CallbackKind::Loop) {  // r1 = index, r2 = context
      as_.emit(ldx(Size::DW, R9, R2, 0));
      as_.emit(mov64(R6, R1));
    } else {  // r1 = map, r2 = key, r3 = value, r4 = context
      as_.emit(ldx(Size::DW, R9, R4, 0));
      as_.emit(mov64(R6, R2));
      as_.emit(mov64(R7, R3));
    }
    body(stop);
    as_.emit(mov64(R0, 0));
    as_.emit(exit());
    as_.bind(stop);
    as_.emit(mov64(R0, 1));
    as_.emit(exit());
  }
}

void ProgramEmitter::loadByte(int32_t area, Reg index, uint32_t limit, Label outside) {
  as_.jumpIf(BPF_JGE, index, static_cast<int32_t>(limit), outside);
  as_.emit(mov64(R0, R9));
  as_.emit(alu64(BPF_ADD, R0, index));
  as_.emit(ldx(Size::B, R0, R0, static_cast<int16_t>(area)));
}

}  // namespace dtrace::codegen
