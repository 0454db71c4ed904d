// strtok() and strtoll(): strings taken apart byte by byte in bpf_loop
// callbacks, with DTrace's semantics.
#include "codegen/emitter.h"

namespace dtrace::codegen {

using namespace bpf;
using ast::Expr;

namespace {
enum TokenWord { kStart, kEnd, kPhase, kDelimiterMap = 8 };  // the map: words 8-11, 256 bits
enum NumberWord { kValue, kNegative, kNumberPhase, kSkip, kBase };

constexpr int32_t kMaxBase = 36;  // digits, then the letters
}  // namespace

// strtok(s, delims): the next token of s, or with s NULL of the string the
// previous strtok() of this probe firing left; DTrace's NULL when no token
// is left (read as an unset string is). strtokOffset holds a word whose
// first byte says whether a strtok() of this firing saved a string (the
// prologue clears it), then the rest of that string, aligned.
void ProgramEmitter::tokenize(const Expr& call, Reg base, int32_t offset, uint32_t size) {
  const uint32_t n = layout_.stringTempSize - 1;
  const int32_t started = static_cast<int32_t>(layout_.strtokOffset), saved = started + 8;
  const int32_t delims = subrArea(1), temp = subrArea(0);
  const Expr& s = *call.operands[0];
  auto word = [&](int w) { return static_cast<int16_t>(loopState(w)); };
  const UnsetStringRead ifNull = std::exchange(nullResult_, {});
  operandInto(*call.operands[1], 1);
  if (s.type->isString()) {
    subrDepth_++;
    stringInto(s, R9, saved, n);
    subrDepth_--;
    as_.emit(st(Size::B, R9, static_cast<int16_t>(started), 1));
  } else {
    Label keep = as_.newLabel();
    if (!(s.constValue && *s.constValue == 0)) {
      operandValue(s);  // a kernel address of a string, or NULL to go on
      as_.jumpIf(BPF_JEQ, R6, 0, keep);
      readStringAt(false, R6, R9, saved, n);
      as_.emit(st(Size::B, R9, static_cast<int16_t>(started), 1));
    }
    // Going on with no string saved reads address 0, as illumos does when
    // the NULL it returns is used.
    as_.bind(keep);
    Label ok = as_.newLabel();
    as_.emit(ldx(Size::B, R1, R9, static_cast<int16_t>(started)));
    as_.jumpIf(BPF_JNE, R1, 0, ok);
    fault(ir::Fault::BadAddr);
    as_.bind(ok);
  }
  const int32_t map = loopState(kDelimiterMap);
  for (int k = 0; k < 4; k++) as_.emit(st(Size::DW, R9, static_cast<int16_t>(map + 8 * k), 0));
  loop(n, [this, delims, map, n](Label stop) {  // one bit per delimiter byte
    loadByte(delims, R6, n, stop);
    as_.jumpIf(BPF_JEQ, R0, 0, stop);
    as_.emit(mov64(R1, R0));
    as_.emit(alu64(BPF_RSH, R1, 3));
    as_.emit(alu64(BPF_AND, R0, 7));
    as_.emit(mov64(R3, 1));
    as_.emit(alu64(BPF_LSH, R3, R0));
    as_.emit(alu64(BPF_ADD, R1, R9));
    as_.emit(ldx(Size::B, R2, R1, static_cast<int16_t>(map)));
    as_.emit(alu64(BPF_OR, R2, R3));
    as_.emit(stx(Size::B, R1, static_cast<int16_t>(map), R2));
  });
  as_.emit(st(Size::DW, R9, word(kStart), -1));
  as_.emit(st(Size::DW, R9, word(kEnd), -1));
  as_.emit(st(Size::DW, R9, word(kPhase), 0));
  loop(n, [this, saved, map, n, word](Label stop) {
    // Phase 0 skips delimiters to the token's start; phase 1 finds its end.
    Label delimiter = as_.newLabel(), inToken = as_.newLabel(), next = as_.newLabel();
    loadByte(saved, R6, n, stop);
    as_.emit(mov64(R1, R0));
    as_.emit(alu64(BPF_RSH, R1, 3));
    as_.emit(alu64(BPF_ADD, R1, R9));
    as_.emit(ldx(Size::B, R2, R1, static_cast<int16_t>(map)));
    as_.emit(mov64(R1, R0));
    as_.emit(alu64(BPF_AND, R1, 7));
    as_.emit(alu64(BPF_RSH, R2, R1));
    as_.emit(alu64(BPF_AND, R2, 1));  // r2 = c is a delimiter
    as_.emit(ldx(Size::DW, R3, R9, word(kPhase)));
    as_.jumpIf(BPF_JNE, R3, 0, inToken);
    as_.jumpIf(BPF_JEQ, R0, 0, stop);
    as_.jumpIf(BPF_JNE, R2, 0, next);
    as_.emit(stx(Size::DW, R9, word(kStart), R6));
    as_.emit(st(Size::DW, R9, word(kPhase), 1));
    as_.jump(next);
    as_.bind(inToken);
    as_.jumpIf(BPF_JEQ, R0, 0, delimiter);
    as_.jumpIf(BPF_JEQ, R2, 0, next);
    as_.bind(delimiter);
    as_.emit(stx(Size::DW, R9, word(kEnd), R6));
    as_.jump(stop);
    as_.bind(next);
  });
  Label found = as_.newLabel(), done = as_.newLabel(), ended = as_.newLabel();
  as_.emit(ldx(Size::DW, R6, R9, word(kStart)));
  as_.jumpIf(BPF_JSGE, R6, 0, found);
  as_.emit(st(Size::B, R9, static_cast<int16_t>(saved), 0));  // nothing left
  unsetStringInto(ifNull, base, offset, size);
  as_.jump(done);
  as_.bind(found);
  as_.emit(ldx(Size::DW, R8, R9, word(kEnd)));
  as_.jumpIf(BPF_JSGE, R8, R6, ended);
  as_.emit(mov64(R8, static_cast<int32_t>(n - 1)));
  as_.bind(ended);
  as_.emit(stx(Size::DW, R9, word(kEnd), R8));
  as_.emit(alu64(BPF_SUB, R8, R6));
  copySlice(saved, R6, R8, base, offset, size);
  // Keep the rest, from the delimiter that ended the token.
  scratchAddress();
  as_.emit(ldx(Size::DW, R3, R9, word(kEnd)));
  as_.emit(alu64(BPF_ADD, R3, R0));
  as_.emit(alu64(BPF_ADD, R3, saved));
  as_.emit(mov64(R1, R9));
  as_.emit(alu64(BPF_ADD, R1, temp));
  as_.emit(mov64(R2, static_cast<int32_t>(n)));
  as_.emit(bpf::call(BPF_FUNC_probe_read_kernel_str));
  copyString(R9, temp, n, R9, saved, n);
  as_.bind(done);
}

// strtoll(s[, base]): leading blanks, a sign, "0x" for base 16, then digits
// while they are digits of the base; 0 when there are none.
void ProgramEmitter::stringToInteger(const Expr& call) {
  const uint32_t n = layout_.stringTempSize;
  const int32_t a = subrArea(0);
  auto word = [&](NumberWord w) { return static_cast<int16_t>(loopState(w)); };
  operandInto(*call.operands[0], 0);
  if (call.operands.size() == 2) {
    Label bad = as_.newLabel(), ok = as_.newLabel();
    operandValue(*call.operands[1]);
    as_.jumpIf(BPF_JSLE, R6, 1, bad);
    as_.jumpIf(BPF_JSLE, R6, kMaxBase, ok);
    as_.bind(bad);
    fault(ir::Fault::IllOp);
    as_.bind(ok);
    as_.emit(stx(Size::DW, R9, word(kBase), R6));
  } else {
    as_.emit(st(Size::DW, R9, word(kBase), 10));
  }
  as_.emit(st(Size::DW, R9, word(kValue), 0));
  as_.emit(st(Size::DW, R9, word(kNegative), 0));
  as_.emit(st(Size::DW, R9, word(kNumberPhase), 0));
  as_.emit(st(Size::DW, R9, word(kSkip), 0));
  loop(n, [this, a, n, word](Label stop) {
    Label prefix = as_.newLabel(), digits = as_.newLabel(), digit = as_.newLabel(),
          next = as_.newLabel();
    loadByte(a, R6, n, stop);
    as_.emit(mov64(R7, R0));  // c
    as_.emit(ldx(Size::DW, R8, R9, word(kBase)));
    as_.emit(ldx(Size::DW, R2, R9, word(kNumberPhase)));
    as_.jumpIf(BPF_JEQ, R2, 1, prefix);
    as_.jumpIf(BPF_JEQ, R2, 2, digits);
    // Phase 0: blanks, then an optional sign.
    as_.jumpIf(BPF_JEQ, R7, ' ', next);
    as_.jumpIf(BPF_JEQ, R7, '\t', next);
    as_.emit(st(Size::DW, R9, word(kNumberPhase), 1));
    Label plus = as_.newLabel();
    as_.jumpIf(BPF_JEQ, R7, '+', next);
    as_.jumpIf(BPF_JNE, R7, '-', plus);
    as_.emit(st(Size::DW, R9, word(kNegative), 1));
    as_.jump(next);
    as_.bind(plus);
    // Phase 1: "0x" before a hex digit is skipped in base 16 (the 0 is a
    // harmless leading digit; the x is skipped).
    as_.bind(prefix);
    as_.emit(st(Size::DW, R9, word(kNumberPhase), 2));
    as_.jumpIf(BPF_JNE, R8, 16, digit);
    as_.jumpIf(BPF_JNE, R7, '0', digit);
    as_.emit(mov64(R1, R6));
    as_.emit(alu64(BPF_ADD, R1, 1));
    loadByte(a, R1, n, digit);
    Label isX = as_.newLabel();
    as_.jumpIf(BPF_JEQ, R0, 'x', isX);
    as_.jumpIf(BPF_JNE, R0, 'X', digit);
    as_.bind(isX);
    as_.emit(mov64(R1, R6));
    as_.emit(alu64(BPF_ADD, R1, 2));
    loadByte(a, R1, n, digit);
    Label hex = as_.newLabel();
    as_.emit(mov64(R1, R0));
    as_.emit(alu64(BPF_SUB, R1, '0'));
    as_.jumpIf(BPF_JLT, R1, 10, hex);
    as_.emit(alu64(BPF_OR, R0, 0x20));  // lower case
    as_.emit(alu64(BPF_SUB, R0, 'a'));
    as_.jumpIf(BPF_JGE, R0, 6, digit);
    as_.bind(hex);
    as_.emit(st(Size::DW, R9, word(kSkip), 1));
    as_.jump(digit);
    // Phase 2: digits of the base.
    as_.bind(digits);
    Label noSkip = as_.newLabel();
    as_.emit(ldx(Size::DW, R1, R9, word(kSkip)));
    as_.jumpIf(BPF_JEQ, R1, 0, noSkip);
    as_.emit(st(Size::DW, R9, word(kSkip), 0));
    as_.jump(next);
    as_.bind(noSkip);
    as_.bind(digit);
    Label letter = as_.newLabel(), haveValue = as_.newLabel();
    as_.emit(mov64(R1, R7));
    as_.emit(alu64(BPF_SUB, R1, '0'));
    as_.jumpIf(BPF_JGT, R1, 9, letter);
    as_.jump(haveValue);
    as_.bind(letter);
    Label lower = as_.newLabel();
    as_.emit(mov64(R1, R7));
    as_.emit(alu64(BPF_SUB, R1, 'a'));
    as_.jumpIf(BPF_JLE, R1, 25, lower);
    as_.emit(mov64(R1, R7));
    as_.emit(alu64(BPF_SUB, R1, 'A'));
    as_.jumpIf(BPF_JGT, R1, 25, stop);
    as_.bind(lower);
    as_.emit(alu64(BPF_ADD, R1, 10));
    as_.bind(haveValue);
    as_.jumpIf(BPF_JGE, R1, R8, stop);
    as_.emit(ldx(Size::DW, R2, R9, word(kValue)));
    as_.emit(alu64(BPF_MUL, R2, R8));
    as_.emit(alu64(BPF_ADD, R2, R1));
    as_.emit(stx(Size::DW, R9, word(kValue), R2));
    as_.bind(next);
  });
  Label positive = as_.newLabel();
  as_.emit(ldx(Size::DW, R6, R9, word(kValue)));
  as_.emit(ldx(Size::DW, R1, R9, word(kNegative)));
  as_.jumpIf(BPF_JEQ, R1, 0, positive);
  as_.emit(neg64(R6));
  as_.bind(positive);
}

}  // namespace dtrace::codegen
