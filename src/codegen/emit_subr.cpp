// Subroutines: DTrace's built-in functions that compute a value.
#include "codegen/emitter.h"

namespace dtrace::codegen {

using namespace bpf;
using ast::Expr;

// Copies the NUL-terminated string at `address` (user or kernel memory)
// into base+offset; an unreadable address is DTrace's "invalid address"
// fault with that address.
void ProgramEmitter::readStringAt(bool user, Reg address, Reg base, int32_t offset, uint32_t size) {
  Label ok = as_.newLabel();
  as_.emit(mov64(R3, address));
  as_.emit(mov64(R1, base));
  as_.emit(alu64(BPF_ADD, R1, offset));
  as_.emit(mov64(R2, static_cast<int32_t>(size)));
  as_.emit(call(user ? BPF_FUNC_probe_read_user_str : BPF_FUNC_probe_read_kernel_str));
  as_.jumpIf(BPF_JSGE, R0, 0, ok);
  fault(ir::Fault::BadAddr, address);
  as_.bind(ok);
}

// r6 = the length of the string at base+offset, at most size - 1.
void ProgramEmitter::stringLength(Reg base, int32_t offset, uint32_t size) {
  Label loop = as_.newLabel(), done = as_.newLabel();
  as_.emit(mov64(R6, 0));
  as_.bind(loop);
  as_.jumpIf(BPF_JGE, R6, static_cast<int32_t>(size - 1), done);
  as_.emit(mov64(R1, base));
  as_.emit(alu64(BPF_ADD, R1, R6));
  as_.emit(ldx(Size::B, R1, R1, static_cast<int16_t>(offset)));
  as_.jumpIf(BPF_JEQ, R1, 0, done);
  as_.emit(alu64(BPF_ADD, R6, 1));
  as_.jump(loop);
  as_.bind(done);
}

void ProgramEmitter::subroutineValue(const Expr& call) {
  if (call.text == "strlen") {
    const int32_t temp = static_cast<int32_t>(layout_.stringTempOffset);
    const uint32_t size = layout_.stringTempSize;
    stringInto(*call.operands[0], R9, temp, size);
    stringLength(R9, temp, size);
    return;
  }
  if (call.text == "rand") {
    // DTrace's rand() is a weak pseudo-random int, as this is.
    as_.emit(bpf::call(BPF_FUNC_get_prandom_u32));
    as_.emit(mov64(R6, R0));
    normalize(R6, call.type);
    return;
  }
  const std::string& name = call.text;
  if (name.starts_with("hton") || name.starts_with("ntoh")) {
    value(*call.operands[0]);
    as_.emit(toBigEndian(R6, static_cast<int32_t>(call.type->size * 8)));
    normalize(R6, call.type);
    return;
  }
  fail("subroutine " + call.text + "( ) has no integer value");
}

}  // namespace dtrace::codegen
