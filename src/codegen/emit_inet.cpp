// inet_ntoa(), inet_ntoa6() and inet_ntop(): addresses in kernel (or
// alloca'd) memory as text, built backward from the end of a buffer the
// way DTrace builds them, so the output matches DTrace's byte for byte
// (its choice of zero run for "::", IPv4-mapped and -compatible forms).
// link_ntop(): a hardware address as text.
#include "codegen/emitter.h"
#include "ir/subroutine.h"

namespace dtrace::codegen {

using namespace bpf;
using ast::Expr;

namespace {
enum InetWord { kPos, kFirstZero, kTryZero, kNumZero, kGroup };
constexpr int32_t kAfInet = 2, kAfInet6 = 10;  // Linux's values
constexpr int32_t kAddrStrLen = 46;            // INET6_ADDRSTRLEN
// link_ntop()'s hardware types (<linux/if_arp.h>) and their address lengths.
constexpr struct {
  int32_t type;
  int32_t length;
} kHardwareAddresses[] = {{1, 6}, {32, 20}};  // ARPHRD_ETHER, ARPHRD_INFINIBAND
constexpr int32_t kMaxHardwareAddress = 20;

// r = the lower-case hex digit of the nibble in r.
void hexDigit(Assembler& as, Reg r) {
  Label decimal = as.newLabel();
  as.emit(alu64(BPF_ADD, r, '0'));
  as.jumpIf(BPF_JLE, r, '9', decimal);
  as.emit(alu64(BPF_ADD, r, 'a' - '9' - 1));
  as.bind(decimal);
}
}  // namespace

void ProgramEmitter::readAddress(int32_t area, int32_t length) {
  Label ok = as_.newLabel();
  as_.emit(mov64(R1, R9));
  as_.emit(alu64(BPF_ADD, R1, area));
  as_.emit(mov64(R2, length));
  as_.emit(mov64(R3, R6));
  as_.emit(bpf::call(BPF_FUNC_probe_read_kernel));
  as_.jumpIf(BPF_JEQ, R0, 0, ok);
  fault(ir::Fault::BadAddr, R6);
  as_.bind(ok);
}

// out[pos--] = byte; byte is r0, r3, r4 or r5.
void ProgramEmitter::putBack(Reg byte, int32_t out) {
  Label full = as_.newLabel();
  const int16_t pos = static_cast<int16_t>(loopState(kPos));
  as_.emit(ldx(Size::DW, R1, R9, pos));
  as_.jumpIf(BPF_JGE, R1, kAddrStrLen, full);
  as_.emit(mov64(R2, R9));
  as_.emit(alu64(BPF_ADD, R2, R1));
  as_.emit(stx(Size::B, R2, static_cast<int16_t>(out), byte));
  as_.emit(alu64(BPF_SUB, R1, 1));
  as_.emit(stx(Size::DW, R9, pos, R1));
  as_.bind(full);
}

// The four bytes at `bytes` as a dotted quad, last byte first.
void ProgramEmitter::inet4(int32_t bytes) {
  const int32_t out = subrArea(1);
  for (int i = 3; i >= 0; i--) {
    const int16_t at = static_cast<int16_t>(bytes + i);
    Label last = as_.newLabel();
    for (int digit = 0; digit < 3; digit++) {  // 1 to 3 decimal digits
      as_.emit(ldx(Size::B, R4, R9, at));
      if (digit > 0) {
        as_.jumpIf(BPF_JLT, R4, digit == 1 ? 10 : 100, last);
        as_.emit(alu64(BPF_DIV, R4, digit == 1 ? 10 : 100));
      }
      as_.emit(alu64(BPF_MOD, R4, 10));
      as_.emit(alu64(BPF_ADD, R4, '0'));
      putBack(R4, out);
    }
    as_.bind(last);
    if (i > 0) {
      as_.emit(mov64(R4, '.'));
      putBack(R4, out);
    }
  }
}

// RFC 1884 text: hex groups without leading zeros, DTrace's longest zero
// run as "::", and an embedded IPv4 address in dotted form (alone, for
// inet_ntoa6).
void ProgramEmitter::inet6(bool full, int32_t bytes) {
  const int32_t out = subrArea(1);
  auto word = [&](InetWord w) { return static_cast<int16_t>(loopState(w)); };
  as_.emit(st(Size::DW, R9, word(kFirstZero), -1));
  as_.emit(st(Size::DW, R9, word(kTryZero), -1));
  as_.emit(st(Size::DW, R9, word(kNumZero), 1));
  loop(16, [this, bytes, word](Label stop) {  // the zero run, a byte at a time
    Label next = as_.newLabel(), runEnd = as_.newLabel(), notLast = as_.newLabel();
    loadByte(bytes, R6, 16, stop);
    as_.emit(ldx(Size::DW, R7, R9, word(kTryZero)));
    as_.jumpIf(BPF_JNE, R0, 0, runEnd);
    as_.jumpIf(BPF_JNE, R7, -1, runEnd);
    as_.jumpIf(BPF_JSET, R6, 1, runEnd);
    as_.emit(stx(Size::DW, R9, word(kTryZero), R6));  // a run starts at an even byte
    as_.jump(next);
    as_.bind(runEnd);
    as_.jumpIf(BPF_JEQ, R7, -1, next);
    Label ends = as_.newLabel();
    as_.jumpIf(BPF_JNE, R0, 0, ends);
    as_.jumpIf(BPF_JNE, R6, 15, next);
    as_.bind(ends);
    as_.emit(st(Size::DW, R9, word(kTryZero), -1));
    as_.emit(mov64(R1, R6));
    as_.emit(alu64(BPF_SUB, R1, R7));
    as_.emit(ldx(Size::DW, R2, R9, word(kNumZero)));
    as_.jumpIf(BPF_JSLE, R1, R2, next);  // not longer than the best run
    as_.emit(stx(Size::DW, R9, word(kFirstZero), R7));
    as_.emit(mov64(R1, R6));
    as_.emit(alu64(BPF_AND, R1, -2));
    as_.emit(alu64(BPF_SUB, R1, R7));
    as_.jumpIf(BPF_JNE, R0, 0, notLast);
    as_.jumpIf(BPF_JNE, R6, 15, notLast);
    as_.emit(alu64(BPF_ADD, R1, 2));
    as_.bind(notLast);
    as_.emit(stx(Size::DW, R9, word(kNumZero), R1));
    as_.bind(next);
  });
  // IPv4-mapped (::ffff:a.b.c.d) or -compatible (::a.b.c.d, not :: or ::1).
  Label plain = as_.newLabel(), embedded = as_.newLabel(), groups = as_.newLabel(),
        done = as_.newLabel();
  as_.emit(st(Size::DW, R9, word(kGroup), 14));
  as_.emit(ldx(Size::DW, R1, R9, static_cast<int16_t>(bytes)));
  as_.jumpIf(BPF_JNE, R1, 0, plain);
  as_.emit(ldx(Size::W, R1, R9, static_cast<int16_t>(bytes + 8)));
  as_.emit(ldx(Size::W, R2, R9, static_cast<int16_t>(bytes + 12)));
  as_.jumpIf32(BPF_JEQ, R1, static_cast<int32_t>(0xffff0000u), embedded);
  as_.jumpIf32(BPF_JNE, R1, 0, plain);
  as_.jumpIf32(BPF_JEQ, R2, 0, plain);
  as_.jumpIf32(BPF_JEQ, R2, 0x01000000, plain);
  as_.bind(embedded);
  inet4(bytes + 12);
  if (!full) {
    as_.jump(done);
  } else {
    as_.emit(st(Size::DW, R9, word(kGroup), 10));
  }
  as_.bind(plain);
  as_.bind(groups);
  loop(9, [this, bytes, out, word](Label stop) {  // one 16-bit group, last first
    Label notRun = as_.newLabel(), noColon = as_.newLabel(), next = as_.newLabel();
    as_.emit(ldx(Size::DW, R7, R9, word(kGroup)));
    as_.jumpIf(BPF_JSLT, R7, 0, stop);
    as_.jumpIf(BPF_JSGT, R7, 14, stop);
    as_.emit(ldx(Size::DW, R8, R9, word(kFirstZero)));
    as_.emit(ldx(Size::DW, R1, R9, word(kNumZero)));
    as_.emit(mov64(R2, R8));
    as_.emit(alu64(BPF_ADD, R2, R1));
    as_.emit(alu64(BPF_SUB, R2, 2));
    as_.jumpIf(BPF_JNE, R7, R2, notRun);
    as_.emit(alu64(BPF_SUB, R7, R1));  // the whole run is "::"
    as_.emit(stx(Size::DW, R9, word(kGroup), R7));
    as_.emit(mov64(R3, ':'));
    putBack(R3, out);
    putBack(R3, out);
    as_.jump(next);
    as_.bind(notRun);
    as_.jumpIf(BPF_JGE, R7, 14, noColon);
    as_.emit(alu64(BPF_SUB, R8, 2));
    as_.jumpIf(BPF_JEQ, R7, R8, noColon);
    as_.emit(mov64(R3, ':'));
    putBack(R3, out);
    as_.bind(noColon);
    as_.emit(mov64(R1, R9));
    as_.emit(alu64(BPF_ADD, R1, R7));
    as_.emit(ldx(Size::B, R8, R1, static_cast<int16_t>(bytes)));
    as_.emit(ldx(Size::B, R2, R1, static_cast<int16_t>(bytes + 1)));
    as_.emit(alu64(BPF_LSH, R8, 8));
    as_.emit(alu64(BPF_OR, R8, R2));  // r8 = the group's value
    Label last = as_.newLabel();
    for (int nibble = 0; nibble < 4; nibble++) {  // 1 to 4 hex digits
      if (nibble > 0) as_.jumpIf(BPF_JLT, R8, 1 << (4 * nibble), last);
      as_.emit(mov64(R3, R8));
      as_.emit(alu64(BPF_RSH, R3, 4 * nibble));
      as_.emit(alu64(BPF_AND, R3, 15));
      hexDigit(as_, R3);
      putBack(R3, out);
    }
    as_.bind(last);
    as_.emit(alu64(BPF_SUB, R7, 2));
    as_.emit(stx(Size::DW, R9, word(kGroup), R7));
    as_.bind(next);
  });
  as_.bind(done);
}

void ProgramEmitter::inetString(const Expr& call, Reg base, int32_t offset, uint32_t size) {
  using S = ir::Subroutine;
  const S subr = *call.subroutine;
  const int32_t bytes = subrArea(0), out = subrArea(1);
  Label v4 = as_.newLabel(), text = as_.newLabel();
  const int16_t family = pushSlot();
  if (subr == S::InetNtop) {
    operandValue(*call.operands[0]);
    as_.emit(stx(Size::DW, R10, family, R6));
    operandValue(*call.operands[1]);
  } else {
    as_.emit(st(Size::DW, R10, family, subr == S::InetNtoa ? kAfInet : kAfInet6));
    operandValue(*call.operands[0]);
  }
  as_.emit(st(Size::DW, R9, static_cast<int16_t>(loopState(kPos)), kAddrStrLen - 2));
  as_.emit(st(Size::B, R9, static_cast<int16_t>(out + kAddrStrLen - 1), 0));
  as_.emit(ldx(Size::DW, R1, R10, family));
  popSlot();
  if (subr != S::InetNtoa) {
    Label notV6 = as_.newLabel();
    as_.jumpIf(BPF_JNE, R1, kAfInet6, notV6);
    readAddress(bytes, 16);
    const bool strict = subr == S::InetNtop ||
                        (call.operands.size() > 1 && call.operands[1]->constValue.value_or(0) != 0);
    inet6(strict, bytes);
    as_.jump(text);
    as_.bind(notV6);
    as_.jumpIf(BPF_JEQ, R1, kAfInet, v4);
    fault(ir::Fault::IllOp);  // neither AF_INET nor AF_INET6
  }
  as_.bind(v4);
  readAddress(bytes, 4);
  inet4(bytes);
  as_.bind(text);
  as_.emit(ldx(Size::DW, R6, R9, static_cast<int16_t>(loopState(kPos))));
  as_.emit(alu64(BPF_ADD, R6, 1));
  as_.emit(mov64(R8, kAddrStrLen - 1));
  as_.emit(alu64(BPF_SUB, R8, R6));
  copySlice(out, R6, R8, base, offset, size);
}

// link_ntop(type, addr): the type's address length in bytes at addr, as
// two lower-case hex digits each, joined by ':' (Oracle's subroutine); an
// unknown type is an illegal operation.
void ProgramEmitter::linkString(const Expr& call, Reg base, int32_t offset, uint32_t size) {
  const int32_t bytes = subrArea(0), out = subrArea(1);
  const int16_t type = pushSlot();
  operandValue(*call.operands[0]);
  as_.emit(stx(Size::DW, R10, type, R6));
  operandValue(*call.operands[1]);  // r6 = the address
  as_.emit(ldx(Size::DW, R1, R10, type));
  popSlot();
  Label format = as_.newLabel();
  for (const auto& hardware : kHardwareAddresses) {
    Label other = as_.newLabel();
    as_.jumpIf(BPF_JNE, R1, hardware.type, other);
    readAddress(bytes, hardware.length);
    as_.emit(mov64(R7, hardware.length));
    as_.jump(format);
    as_.bind(other);
  }
  fault(ir::Fault::IllOp);
  as_.bind(format);  // r7 = the length
  Label done = as_.newLabel();
  for (int32_t i = 0; i < kMaxHardwareAddress; i++) {
    as_.jumpIf(BPF_JLE, R7, i, done);
    const int16_t at = static_cast<int16_t>(out + 3 * i);
    as_.emit(ldx(Size::B, R1, R9, static_cast<int16_t>(bytes + i)));
    as_.emit(mov64(R2, R1));
    as_.emit(alu64(BPF_RSH, R2, 4));
    hexDigit(as_, R2);
    as_.emit(stx(Size::B, R9, at, R2));
    as_.emit(alu64(BPF_AND, R1, 0xf));
    hexDigit(as_, R1);
    as_.emit(stx(Size::B, R9, static_cast<int16_t>(at + 1), R1));
    as_.emit(st(Size::B, R9, static_cast<int16_t>(at + 2), ':'));
  }
  as_.bind(done);
  as_.emit(mov64(R6, 0));
  as_.emit(mov64(R8, R7));
  as_.emit(alu64(BPF_MUL, R8, 3));
  as_.emit(alu64(BPF_SUB, R8, 1));  // without the last ':'
  copySlice(out, R6, R8, base, offset, size);
}

}  // namespace dtrace::codegen
