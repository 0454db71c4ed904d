// index(), rindex(), strstr(), strchr() and strrchr(): DTrace's naive
// substring search with its edge cases (empty strings, clamped start
// positions). A found string is the rest of s from the match; not found is
// DTrace's NULL (dtrace_dif_subr leaves 0 in the register): printing it
// faults at 0, comparing it reads "".
#include "codegen/emitter.h"
#include "ir/subroutine.h"

namespace dtrace::codegen {

using namespace bpf;
using ast::Expr;

namespace {
enum Word { kPos, kMatched, kResult, kSublen, kLimit, kLen, kStart };

using S = ir::Subroutine;

bool isReverse(S subr) { return subr == S::Rindex || subr == S::Strrchr; }
}  // namespace

void ProgramEmitter::searchString(const Expr& call, Reg base, int32_t offset, uint32_t size) {
  const UnsetStringRead ifNull = std::exchange(nullResult_, {});
  stringSearch(call);
  Label found = as_.newLabel(), done = as_.newLabel();
  as_.jumpIf(BPF_JSGE, R6, 0, found);
  unsetStringInto(ifNull, base, offset, size);
  as_.jump(done);
  as_.bind(found);
  as_.emit(mov64(R8, static_cast<int32_t>(size)));
  copySlice(subrArea(0), R6, R8, base, offset, size);
  as_.bind(done);
}

void ProgramEmitter::stringSearch(const Expr& call) {
  const S subr = *call.subroutine;
  const bool reverse = isReverse(subr);
  const bool byChar = subr == S::Strchr || subr == S::Strrchr;
  const bool hasStart = call.operands.size() == 3;
  const uint32_t n = layout_.stringTempSize;
  const int32_t s = subrArea(0), t = subrArea(1);
  auto word = [&](Word w) { return static_cast<int16_t>(loopState(w)); };

  operandInto(*call.operands[0], 0);
  if (byChar) {  // the needle is the one-character string c
    operandValue(*call.operands[1]);
    as_.emit(stx(Size::B, R9, static_cast<int16_t>(t), R6));
    as_.emit(st(Size::B, R9, static_cast<int16_t>(t + 1), 0));
  } else {
    operandInto(*call.operands[1], 1);
  }
  if (hasStart) {
    operandValue(*call.operands[2]);
    as_.emit(stx(Size::DW, R9, word(kStart), R6));
  }
  stringLength(R9, s, n);
  as_.emit(stx(Size::DW, R9, word(kLen), R6));
  stringLength(R9, t, n);
  as_.emit(stx(Size::DW, R9, word(kSublen), R6));

  Label done = as_.newLabel(), search = as_.newLabel();
  as_.emit(ldx(Size::DW, R1, R9, word(kLen)));
  as_.emit(ldx(Size::DW, R2, R9, word(kSublen)));
  if (subr == S::Strchr) {  // strchr(s, 0) is the NUL at the end
    Label notNul = as_.newLabel();
    as_.jumpIf(BPF_JNE, R2, 0, notNul);
    as_.emit(mov64(R6, R1));
    as_.jump(done);
    as_.bind(notNul);
  }
  // Both empty: position 0 whatever the start.
  Label notBothEmpty = as_.newLabel();
  as_.emit(mov64(R6, 0));
  as_.jumpIf(BPF_JNE, R1, 0, notBothEmpty);
  as_.jumpIf(BPF_JEQ, R2, 0, done);
  as_.bind(notBothEmpty);

  // r3 = the first position, r4 = the position past the last one.
  auto emptyNeedle = [&](Reg valueIfEmpty) {  // r6 = valueIfEmpty if t is "", else -1
    Label nonEmpty = as_.newLabel();
    as_.emit(mov64(R6, -1));
    as_.jumpIf(BPF_JNE, R2, 0, nonEmpty);
    as_.emit(mov64(R6, valueIfEmpty));
    as_.bind(nonEmpty);
    as_.jump(done);
  };
  if (!reverse) {
    as_.emit(mov64(R3, 0));
    as_.emit(mov64(R4, R1));
    if (hasStart) {  // a negative start is 0; at or past the end only "" is found, at len
      Label nonNegative = as_.newLabel(), inside = as_.newLabel();
      as_.emit(ldx(Size::DW, R3, R9, word(kStart)));
      as_.jumpIf(BPF_JSGE, R3, 0, nonNegative);
      as_.emit(mov64(R3, 0));
      as_.bind(nonNegative);
      as_.jumpIf(BPF_JSLT, R3, R1, inside);
      emptyNeedle(R1);
      as_.bind(inside);
    }
  } else {
    as_.emit(mov64(R3, R1));
    as_.emit(mov64(R4, -1));
    if (hasStart) {  // a negative start finds only "", at 0; past the end is the end
      Label nonNegative = as_.newLabel(), clamped = as_.newLabel();
      as_.emit(ldx(Size::DW, R3, R9, word(kStart)));
      as_.jumpIf(BPF_JSGE, R3, 0, nonNegative);
      as_.emit(mov64(R5, 0));
      emptyNeedle(R5);
      as_.bind(nonNegative);
      as_.jumpIf(BPF_JSLE, R3, R1, clamped);
      as_.emit(mov64(R3, R1));
      as_.bind(clamped);
    }
  }
  as_.emit(mov64(R6, -1));
  as_.jumpIf(BPF_JEQ, R3, R4, done);
  as_.bind(search);
  as_.emit(stx(Size::DW, R9, word(kPos), R3));
  as_.emit(stx(Size::DW, R9, word(kLimit), R4));
  as_.emit(st(Size::DW, R9, word(kMatched), 0));
  as_.emit(st(Size::DW, R9, word(kResult), -1));

  // One step compares one byte: at most (len + 1) * (sublen + 1) steps.
  loop((n + 1) * (n + 1), [this, s, t, n, reverse, word](Label stop) {
    Label mismatch = as_.newLabel();
    as_.emit(ldx(Size::DW, R7, R9, word(kPos)));
    as_.emit(ldx(Size::DW, R8, R9, word(kMatched)));
    as_.emit(ldx(Size::DW, R1, R9, word(kSublen)));
    Label compare = as_.newLabel();
    as_.jumpIf(BPF_JNE, R8, R1, compare);
    as_.emit(stx(Size::DW, R9, word(kResult), R7));  // all of t matched at pos
    as_.jump(stop);
    as_.bind(compare);
    as_.emit(mov64(R2, R7));
    as_.emit(alu64(BPF_ADD, R2, R8));
    loadByte(s, R2, n, mismatch);
    as_.emit(mov64(R3, R0));
    loadByte(t, R8, n, mismatch);
    as_.jumpIf(BPF_JNE, R3, R0, mismatch);
    as_.emit(alu64(BPF_ADD, R8, 1));
    as_.emit(stx(Size::DW, R9, word(kMatched), R8));
    Label next = as_.newLabel();
    as_.jump(next);
    as_.bind(mismatch);
    as_.emit(alu64(BPF_ADD, R7, reverse ? -1 : 1));
    as_.emit(stx(Size::DW, R9, word(kPos), R7));
    as_.emit(st(Size::DW, R9, word(kMatched), 0));
    as_.emit(ldx(Size::DW, R1, R9, word(kLimit)));
    as_.jumpIf(BPF_JEQ, R7, R1, stop);
    as_.bind(next);
  });
  as_.emit(ldx(Size::DW, R6, R9, word(kResult)));
  as_.bind(done);
}

}  // namespace dtrace::codegen
