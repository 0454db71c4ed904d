// basename(), dirname() and cleanpath(): path strings as DTrace cuts them
// (basename("/") is "/", dirname("foo") is ".", cleanpath("/a/./b/../c")
// is "/a/c"), each scan a bpf_loop callback over the operand's bytes.
#include "codegen/emitter.h"
#include "ir/subroutine.h"

namespace dtrace::codegen {

using namespace bpf;
using ast::Expr;

namespace {
enum NameWord { kLen, kPhase, kLastBase, kFirstBase, kLastDir };
enum CleanWord { kIn, kOut, kChar, kMode };
enum CleanMode { kRead, kNext, kBack };
}  // namespace

void ProgramEmitter::pathString(const Expr& call, Reg base, int32_t offset, uint32_t size) {
  operandInto(*call.operands[0], 0);
  if (*call.subroutine == ir::Subroutine::Cleanpath) {
    cleanPath(base, offset, size);
  } else {
    baseOrDirName(*call.subroutine == ir::Subroutine::Dirname, base, offset, size);
  }
}

// Scanning back from the end: the last non-slash is the basename's end,
// the slash before it its start, the next non-slash the dirname's end.
void ProgramEmitter::baseOrDirName(bool dir, Reg base, int32_t offset, uint32_t size) {
  const uint32_t n = layout_.stringTempSize;
  const int32_t a = subrArea(0);
  auto word = [&](NameWord w) { return static_cast<int16_t>(loopState(w)); };
  Label done = as_.newLabel(), dot = as_.newLabel(), slash = as_.newLabel();
  stringLength(R9, a, n);
  as_.jumpIf(BPF_JEQ, R6, 0, dot);  // "" is "."
  as_.emit(stx(Size::DW, R9, word(kLen), R6));
  as_.emit(st(Size::DW, R9, word(kPhase), 0));
  as_.emit(st(Size::DW, R9, word(kLastBase), -1));
  as_.emit(st(Size::DW, R9, word(kFirstBase), -1));
  as_.emit(st(Size::DW, R9, word(kLastDir), -1));
  loop(n, [this, a, n, word](Label stop) {
    Label inBase = as_.newLabel(), inSlashes = as_.newLabel();
    as_.emit(ldx(Size::DW, R7, R9, word(kLen)));
    as_.emit(alu64(BPF_SUB, R7, 1));
    as_.emit(alu64(BPF_SUB, R7, R6));  // i = len - 1 - iteration
    as_.jumpIf(BPF_JSLT, R7, 0, stop);
    loadByte(a, R7, n, stop);
    as_.emit(ldx(Size::DW, R2, R9, word(kPhase)));
    as_.jumpIf(BPF_JNE, R2, 0, inBase);
    Label next = as_.newLabel();
    as_.jumpIf(BPF_JEQ, R0, '/', next);  // trailing slashes
    as_.emit(stx(Size::DW, R9, word(kLastBase), R7));
    as_.emit(st(Size::DW, R9, word(kPhase), 1));
    as_.jump(next);
    as_.bind(inBase);
    as_.jumpIf(BPF_JNE, R2, 1, inSlashes);
    as_.jumpIf(BPF_JNE, R0, '/', next);
    as_.emit(alu64(BPF_ADD, R7, 1));
    as_.emit(stx(Size::DW, R9, word(kFirstBase), R7));
    as_.emit(st(Size::DW, R9, word(kPhase), 2));
    as_.jump(next);
    as_.bind(inSlashes);
    as_.jumpIf(BPF_JEQ, R0, '/', next);
    as_.emit(stx(Size::DW, R9, word(kLastDir), R7));
    as_.jump(stop);
    as_.bind(next);
  });
  as_.emit(ldx(Size::DW, R1, R9, word(kLastBase)));
  as_.emit(ldx(Size::DW, R6, R9, word(kFirstBase)));
  as_.emit(ldx(Size::DW, R3, R9, word(kLastDir)));
  as_.jumpIf(BPF_JEQ, R1, -1, slash);  // only slashes
  if (dir) {
    as_.jumpIf(BPF_JEQ, R6, -1, dot);    // no directory part
    as_.jumpIf(BPF_JEQ, R3, -1, slash);  // "/name"
    as_.emit(mov64(R6, 0));
    as_.emit(mov64(R8, R3));
  } else {
    Label haveStart = as_.newLabel();
    as_.jumpIf(BPF_JNE, R6, -1, haveStart);
    as_.emit(mov64(R6, 0));
    as_.bind(haveStart);
    as_.emit(mov64(R8, R1));
  }
  as_.emit(alu64(BPF_SUB, R8, R6));
  as_.emit(alu64(BPF_ADD, R8, 1));
  copySlice(a, R6, R8, base, offset, size);
  as_.jump(done);
  as_.bind(dot);
  literalInto(".", base, offset, size);
  as_.jump(done);
  as_.bind(slash);
  literalInto("/", base, offset, size);
  as_.bind(done);
}

// DTrace's cleanpath: copy the path, dropping "//" and "/./" and backing up
// over the previous component at "/../". One callback iteration handles one
// input component step or one byte of backing up.
void ProgramEmitter::cleanPath(Reg base, int32_t offset, uint32_t size) {
  const uint32_t n = layout_.stringTempSize;
  const int32_t in = subrArea(0), out = subrArea(1);
  // DTrace stops when j + 5 >= strsize ("/..c" and a NUL must fit).
  const int32_t roomLimit = static_cast<int32_t>(std::min(n, types_.strsize())) - 5;
  auto word = [&](CleanWord w) { return static_cast<int16_t>(loopState(w)); };
  as_.emit(st(Size::DW, R9, word(kIn), 0));
  as_.emit(st(Size::DW, R9, word(kOut), 0));
  as_.emit(st(Size::DW, R9, word(kMode), kRead));
  loop(8 * n + 16, [this, in, out, n, roomLimit, word](Label stop) {
    Label back = as_.newLabel(), next = as_.newLabel(), cont = as_.newLabel(),
          again = as_.newLabel(), finish = as_.newLabel();
    // r8 = input index, r7 = output index, r3 = the character.
    auto read = [&]() {  // r3 = in[r8++], NUL past the buffer
      Label outside = as_.newLabel(), have = as_.newLabel();
      loadByte(in, R8, n, outside);
      as_.emit(mov64(R3, R0));
      as_.jump(have);
      as_.bind(outside);
      as_.emit(mov64(R3, 0));
      as_.bind(have);
      as_.emit(alu64(BPF_ADD, R8, 1));
    };
    auto emitBytes = [&](std::initializer_list<int> bytes) {  // then r3; r7 < roomLimit
      as_.emit(mov64(R1, R9));
      as_.emit(alu64(BPF_ADD, R1, R7));
      int k = 0;
      for (int b : bytes) as_.emit(st(Size::B, R1, static_cast<int16_t>(out + k++), b));
      as_.emit(stx(Size::B, R1, static_cast<int16_t>(out + k++), R3));
      as_.emit(alu64(BPF_ADD, R7, k));
      as_.jump(cont);
    };
    auto resume = [&](CleanMode mode) {  // save the state and take another step
      as_.emit(stx(Size::DW, R9, word(kChar), R3));
      as_.emit(st(Size::DW, R9, word(kMode), mode));
      as_.jump(again);
    };
    as_.emit(ldx(Size::DW, R8, R9, word(kIn)));
    as_.emit(ldx(Size::DW, R7, R9, word(kOut)));
    as_.emit(ldx(Size::DW, R3, R9, word(kChar)));
    as_.emit(ldx(Size::DW, R2, R9, word(kMode)));
    as_.jumpIf(BPF_JEQ, R2, kBack, back);
    as_.jumpIf(BPF_JEQ, R2, kNext, next);
    read();
    as_.bind(next);
    if (roomLimit <= 0) {
      as_.jump(finish);
    } else {
      as_.jumpIf(BPF_JGE, R7, roomLimit, finish);
    }
    Label slash = as_.newLabel(), notSlashSlash = as_.newLabel(), dot = as_.newLabel(),
          dotDot = as_.newLabel(), up = as_.newLabel();
    as_.jumpIf(BPF_JEQ, R3, '/', slash);
    emitBytes({});
    as_.bind(slash);
    read();
    as_.jumpIf(BPF_JNE, R3, '/', notSlashSlash);
    resume(kNext);  // "//": handle this slash again
    as_.bind(notSlashSlash);
    as_.jumpIf(BPF_JEQ, R3, '.', dot);
    emitBytes({'/'});
    as_.bind(dot);
    read();
    Label notDotSlash = as_.newLabel();
    as_.jumpIf(BPF_JNE, R3, '/', notDotSlash);
    resume(kNext);  // "/./"
    as_.bind(notDotSlash);
    as_.jumpIf(BPF_JEQ, R3, '.', dotDot);
    emitBytes({'/', '.'});
    as_.bind(dotDot);
    read();
    as_.jumpIf(BPF_JEQ, R3, '/', up);
    as_.jumpIf(BPF_JEQ, R3, 0, up);
    emitBytes({'/', '.', '.'});
    as_.bind(up);  // "/../" or "/..": back up to the previous slash
    as_.emit(alu64(BPF_SUB, R8, 1));
    resume(kBack);

    as_.bind(back);
    Label endBack = as_.newLabel();
    as_.jumpIf(BPF_JEQ, R7, 0, endBack);
    as_.emit(alu64(BPF_SUB, R7, 1));
    loadByte(out, R7, n, endBack);
    as_.jumpIf(BPF_JEQ, R0, '/', endBack);
    as_.jump(again);
    as_.bind(endBack);
    Label more = as_.newLabel();
    as_.jumpIf(BPF_JNE, R3, 0, more);
    as_.emit(alu64(BPF_ADD, R7, 1));  // "/.." at the end keeps the slash
    as_.jump(finish);
    as_.bind(more);
    as_.emit(st(Size::DW, R9, word(kMode), kRead));
    as_.jump(again);

    as_.bind(cont);  // after copying: the NUL ends the path
    as_.jumpIf(BPF_JEQ, R3, 0, finish);
    as_.emit(st(Size::DW, R9, word(kMode), kRead));
    as_.bind(again);
    as_.emit(stx(Size::DW, R9, word(kIn), R8));
    as_.emit(stx(Size::DW, R9, word(kOut), R7));
    Label go = as_.newLabel();
    as_.jump(go);
    as_.bind(finish);
    as_.emit(stx(Size::DW, R9, word(kOut), R7));
    as_.jump(stop);
    as_.bind(go);
  });
  // out[j] = NUL, then the result.
  Label inRange = as_.newLabel();
  as_.emit(ldx(Size::DW, R1, R9, word(kOut)));
  as_.jumpIf(BPF_JLT, R1, static_cast<int32_t>(n), inRange);
  as_.emit(mov64(R1, static_cast<int32_t>(n - 1)));
  as_.bind(inRange);
  as_.emit(alu64(BPF_ADD, R1, R9));
  as_.emit(st(Size::B, R1, static_cast<int16_t>(out), 0));
  as_.emit(mov64(R6, 0));
  as_.emit(mov64(R8, static_cast<int32_t>(size)));
  copySlice(out, R6, R8, base, offset, size);
}

}  // namespace dtrace::codegen
