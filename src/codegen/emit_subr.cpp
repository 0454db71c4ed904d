// Subroutines: DTrace's built-in functions that compute a value.
#include "codegen/emitter.h"
#include "ir/subroutine.h"
#include "sema/checker.h"

namespace dtrace::codegen {

using namespace bpf;
using ast::Expr;

namespace {
constexpr int32_t kRandModulus = 1771875;  // illumos's DIF_SUBR_RAND
}  // namespace

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

// copyinstr(addr[, n]): at most n characters and the NUL when n (compared
// unsigned) is below the string size, else the string size, as illumos's
// DIF_SUBR_COPYINSTR sizes the copy; n may be known only at run time.
void ProgramEmitter::copyInString(const Expr& call, Reg base, int32_t offset, uint32_t size) {
  if (call.operands.size() == 1 || call.operands[1]->constValue) {
    uint32_t n = size;
    if (call.operands.size() == 2 && static_cast<uint64_t>(*call.operands[1]->constValue) < size) {
      n = static_cast<uint32_t>(*call.operands[1]->constValue) + 1;
    }
    value(*call.operands[0]);  // a user address
    readStringAt(true, R6, base, offset, n);
    return;
  }
  value(*call.operands[1]);
  const int16_t length = pushSlot();
  as_.emit(stx(Size::DW, R10, length, R6));
  value(*call.operands[0]);
  Label whole = as_.newLabel(), sized = as_.newLabel(), ok = as_.newLabel();
  as_.emit(ldx(Size::DW, R2, R10, length));
  popSlot();
  as_.jumpIf(BPF_JGE, R2, static_cast<int32_t>(size), whole);
  as_.emit(alu64(BPF_ADD, R2, 1));
  as_.jump(sized);
  as_.bind(whole);
  as_.emit(mov64(R2, static_cast<int32_t>(size)));
  as_.bind(sized);
  as_.emit(mov64(R3, R6));
  as_.emit(mov64(R1, base));
  as_.emit(alu64(BPF_ADD, R1, offset));
  as_.emit(bpf::call(BPF_FUNC_probe_read_user_str));
  as_.jumpIf(BPF_JSGE, R0, 0, ok);
  fault(ir::Fault::BadAddr, R6);
  as_.bind(ok);
}

// The helper copying the string onto itself returns its length plus the
// NUL: no loop, and a length the verifier knows only as a range (a loop
// would hand every later instruction one exact length per path).
void ProgramEmitter::stringLength(Reg base, int32_t offset, uint32_t size) {
  as_.emit(mov64(R1, base));
  as_.emit(alu64(BPF_ADD, R1, offset));
  as_.emit(mov64(R3, R1));
  as_.emit(mov64(R2, static_cast<int32_t>(size)));
  as_.emit(bpf::call(BPF_FUNC_probe_read_kernel_str));
  as_.emit(mov64(R6, R0));
  as_.emit(alu64(BPF_SUB, R6, 1));
  Label low = as_.newLabel(), ok = as_.newLabel();
  as_.jumpIf(BPF_JSLT, R6, 0, low);
  as_.jumpIf(BPF_JSLT, R6, static_cast<int32_t>(size), ok);
  as_.bind(low);
  as_.emit(mov64(R6, 0));
  as_.bind(ok);
}

// ASCII case change of every byte of a word at once (no branches):
// a byte is a letter when its low 7 bits are >= first and <= last and its
// high bit is clear; flipping 0x20 changes its case.
void ProgramEmitter::changeCase(bool upper, Reg base, int32_t offset, uint32_t size) {
  const uint64_t ones = 0x0101010101010101ull;
  const uint8_t first = upper ? 'a' : 'A', last = upper ? 'z' : 'Z';
  for (uint32_t off = 0; off + 8 <= size; off += 8) {
    const int16_t at = static_cast<int16_t>(offset + off);
    as_.emit(ldx(Size::DW, R1, base, at));
    as_.emit(ldImm64(R2, 0x7f7f7f7f7f7f7f7full));
    as_.emit(alu64(BPF_AND, R2, R1));  // low 7 bits of each byte
    as_.emit(mov64(R3, R2));
    as_.emit(ldImm64(R4, (0x80 - first) * ones));
    as_.emit(alu64(BPF_ADD, R3, R4));  // high bit: byte >= first
    as_.emit(ldImm64(R4, (0x80 - last - 1) * ones));
    as_.emit(alu64(BPF_ADD, R2, R4));  // high bit: byte > last
    as_.emit(alu64(BPF_XOR, R2, -1));
    as_.emit(alu64(BPF_AND, R3, R2));
    as_.emit(mov64(R2, R1));
    as_.emit(alu64(BPF_XOR, R2, -1));  // high bit: ASCII
    as_.emit(alu64(BPF_AND, R3, R2));
    as_.emit(ldImm64(R4, 0x8080808080808080ull));
    as_.emit(alu64(BPF_AND, R3, R4));
    as_.emit(alu64(BPF_RSH, R3, 2));  // 0x80 -> 0x20
    as_.emit(alu64(BPF_XOR, R1, R3));
    as_.emit(stx(Size::DW, base, at, R1));
  }
  for (uint32_t off = size / 8 * 8; off < size; off++) {  // a tail shorter than a word
    Label skip = as_.newLabel();
    const int16_t at = static_cast<int16_t>(offset + off);
    as_.emit(ldx(Size::B, R1, base, at));
    as_.jumpIf(BPF_JLT, R1, first, skip);
    as_.jumpIf(BPF_JGT, R1, last, skip);
    as_.emit(alu64(BPF_XOR, R1, 0x20));
    as_.emit(stx(Size::B, base, at, R1));
    as_.bind(skip);
  }
}

// String-valued subroutines written into base+offset; false for any other
// call.
bool ProgramEmitter::subroutineString(const Expr& call, Reg base, int32_t offset, uint32_t size) {
  if (!call.subroutine) return false;
  using S = ir::Subroutine;
  switch (*call.subroutine) {
    case S::Strstr:
    case S::Strchr:
    case S::Strrchr:
      searchString(call, base, offset, size);
      return true;
    case S::Basename:
    case S::Dirname:
    case S::Cleanpath:
      pathString(call, base, offset, size);
      return true;
    case S::InetNtoa:
    case S::InetNtoa6:
    case S::InetNtop:
      inetString(call, base, offset, size);
      return true;
    case S::LinkNtop:
      linkString(call, base, offset, size);
      return true;
    case S::Strtok:
      tokenize(call, base, offset, size);
      return true;
    case S::Json:
      jsonValue(call, base, offset, size);
      return true;
    case S::Toupper:
    case S::Tolower:  // s with ASCII letters changed
      stringInto(*call.operands[0], base, offset, size);
      changeCase(*call.subroutine == S::Toupper, base, offset, size);
      return true;
    case S::Substr:
    case S::StringOffset:  // s + i is substr(s, i)
      substring(call, base, offset, size);
      return true;
    case S::Lltostr:
      integerToString(call, base, offset, size);
      return true;
    case S::Strjoin:
      joinString(call, base, offset, size);
      return true;
    case S::Copyinstr:
      copyInString(call, base, offset, size);
      return true;
    default:
      return false;
  }
}

// strjoin(a, b): a, then b, NUL-terminated; out of scratch space when the
// two do not fit strsize.
void ProgramEmitter::joinString(const Expr& call, Reg base, int32_t offset, uint32_t size) {
  if (joinDepth_ >= layout_.joinLevels) {
    fail("strjoin( ) calls are nested too deeply");
    return;
  }
  const int32_t joined = joinInPlace(call, joinDepth_);
  as_.emit(mov64(R3, R9));
  as_.emit(alu64(BPF_ADD, R3, joined));
  as_.emit(mov64(R1, base));
  as_.emit(alu64(BPF_ADD, R1, offset));
  as_.emit(mov64(R2, static_cast<int32_t>(size)));
  as_.emit(bpf::call(BPF_FUNC_probe_read_kernel_str));
}

// strjoin(a, b) into nesting level `level`'s area: the joined string (two
// string sizes, so that b can be appended at any length of a), then b.
// Returns the joined string's offset in scratch. A strjoin() as a is
// joined in the same area (strjoin(strjoin(x, y), z) appends z where x and
// y were joined), so a chain costs one level; b, and strjoin()s inside
// other subroutines, take the next level.
int32_t ProgramEmitter::joinInPlace(const Expr& call, uint32_t level) {
  const uint32_t n = layout_.stringTempSize;
  const int32_t joined = static_cast<int32_t>(layout_.joinOffset + level * 3 * n);
  const int32_t second = joined + static_cast<int32_t>(2 * n);
  const Expr& a = *call.operands[0];
  joinDepth_ = level + 1;
  if (a.kind == ast::ExprKind::Call && a.subroutine == ir::Subroutine::Strjoin) {
    joinInPlace(a, level);
    joinDepth_ = level + 1;
  } else {
    for (uint32_t off = 0; off < n; off += 8) {
      as_.emit(st(Size::DW, R9, static_cast<int16_t>(joined + off), 0));
    }
    stringInto(a, R9, joined, n);
  }
  stringInto(*call.operands[1], R9, second, n);
  joinDepth_ = level;
  stringLength(R9, joined, n);
  as_.emit(mov64(R1, R9));
  as_.emit(alu64(BPF_ADD, R1, R6));
  as_.emit(alu64(BPF_ADD, R1, joined));
  as_.emit(mov64(R2, static_cast<int32_t>(n)));
  as_.emit(mov64(R3, R9));
  as_.emit(alu64(BPF_ADD, R3, second));
  as_.emit(bpf::call(BPF_FUNC_probe_read_kernel_str));  // r0 = b's length and the NUL
  // A result longer than a string can hold is out of scratch space, as in
  // illumos's strjoin, rather than silently cut short.
  Label fits = as_.newLabel();
  as_.emit(alu64(BPF_ADD, R0, R6));
  as_.jumpIf(BPF_JSLE, R0, static_cast<int32_t>(types_.strsize()), fits);
  fault(ir::Fault::NoScratch);
  as_.bind(fits);
  return joined;
}

// substr(s, i[, len]) as illumos computes it: a negative i counts from the
// end and, still negative, eats into len (substr("hello", -6, 2) is "h"); a
// negative len stops that many bytes before the end; out of range gives "".
void ProgramEmitter::substring(const Expr& call, Reg base, int32_t offset, uint32_t size) {
  const uint32_t n = layout_.stringTempSize;
  const int32_t temp = static_cast<int32_t>(layout_.stringTempOffset);
  const int16_t startSlot = pushSlot(), countSlot = pushSlot();
  value(*call.operands[1]);
  as_.emit(stx(Size::DW, R10, startSlot, R6));
  constant(n);
  if (call.operands.size() == 3) value(*call.operands[2]);
  as_.emit(stx(Size::DW, R10, countSlot, R6));
  // No longer than strsize allows, like a string variable (the buffer is
  // rounded up to whole words).
  stringInto(*call.operands[0], R9, temp, std::min(n, types_.stringBufferSize()));
  stringLength(R9, temp, n);  // r6 = length
  Label fromStart = as_.newLabel(), empty = as_.newLabel(), haveCount = as_.newLabel(),
        copy = as_.newLabel(), countOk = as_.newLabel();
  as_.emit(ldx(Size::DW, R1, R10, startSlot));
  as_.emit(ldx(Size::DW, R2, R10, countSlot));
  as_.jumpIf(BPF_JSGE, R1, 0, fromStart);
  as_.emit(alu64(BPF_ADD, R1, R6));  // from the end
  as_.jumpIf(BPF_JSGE, R1, 0, fromStart);
  as_.emit(mov64(R3, R1));
  as_.emit(alu64(BPF_ADD, R3, R2));
  as_.jumpIf(BPF_JSLE, R3, 0, empty);
  as_.emit(mov64(R2, R3));  // before the start: what is left of len
  as_.emit(mov64(R1, 0));
  as_.bind(fromStart);
  as_.jumpIf(BPF_JGE, R1, R6, empty);  // r1 < r6 from here: bounded
  as_.jumpIf(BPF_JSGE, R2, 0, haveCount);
  as_.emit(alu64(BPF_ADD, R2, R6));  // up to len + count
  as_.emit(alu64(BPF_SUB, R2, R1));
  as_.jumpIf(BPF_JSGE, R2, 0, haveCount);
  as_.bind(empty);
  as_.emit(mov64(R1, R6));  // the NUL, so ""
  as_.emit(mov64(R2, 0));
  as_.bind(haveCount);
  as_.jumpIf(BPF_JLT, R2, static_cast<int32_t>(size), copy);
  as_.emit(mov64(R2, static_cast<int32_t>(size - 1)));
  as_.bind(copy);
  as_.emit(alu64(BPF_ADD, R2, 1));  // room for the NUL
  as_.jumpIf(BPF_JLE, R2, static_cast<int32_t>(size), countOk);
  as_.emit(mov64(R2, static_cast<int32_t>(size)));
  as_.bind(countOk);
  popSlot();
  popSlot();
  as_.emit(mov64(R3, R9));
  as_.emit(alu64(BPF_ADD, R3, temp));
  as_.emit(alu64(BPF_ADD, R3, R1));
  as_.emit(mov64(R1, base));
  as_.emit(alu64(BPF_ADD, R1, offset));
  as_.emit(bpf::call(BPF_FUNC_probe_read_kernel_str));
}

// lltostr(n[, base]): the digits of n, built from the end of a stack buffer,
// as illumos writes them: base 10 signed, other bases the 64-bit pattern,
// "0x" before base 16 and "0" before a nonzero number in base 8. A base
// outside 2-36 is an illegal operation.
void ProgramEmitter::integerToString(const Expr& call, Reg base, int32_t offset, uint32_t size) {
  constexpr int kSlots = 9;  // 72 bytes: 64 binary digits and the NUL
  constexpr int kDigits = kSlots * 8;
  const bool withBase = call.operands.size() == 2;
  const int16_t baseSlot = pushSlot(), numberSlot = pushSlot();
  int16_t buf = 0;
  for (int i = 0; i < kSlots; i++) buf = pushSlot();  // buf: the lowest address
  if (withBase) {
    Label bad = as_.newLabel(), ok = as_.newLabel();
    value(*call.operands[1]);
    as_.jumpIf(BPF_JSLE, R6, 1, bad);
    as_.jumpIf(BPF_JSLE, R6, 36, ok);
    as_.bind(bad);
    fault(ir::Fault::IllOp);
    as_.bind(ok);
  } else {
    as_.emit(mov64(R6, 10));
  }
  as_.emit(stx(Size::DW, R10, baseSlot, R6));
  value(*call.operands[0]);
  as_.emit(stx(Size::DW, R10, numberSlot, R6));
  for (int i = 0; i < kSlots; i++) {
    as_.emit(st(Size::DW, R10, static_cast<int16_t>(buf + 8 * i), 0));
  }
  as_.emit(ldx(Size::DW, R5, R10, baseSlot));
  as_.emit(mov64(R2, R6));  // the value, as unsigned
  Label magnitude = as_.newLabel();
  as_.jumpIf(BPF_JNE, R5, 10, magnitude);
  as_.jumpIf(BPF_JSGE, R6, 0, magnitude);
  as_.emit(neg64(R2));
  as_.bind(magnitude);
  as_.emit(mov64(R1, kDigits - 2));  // index of the last digit (the NUL follows)
  Label loop = as_.newLabel(), done = as_.newLabel(), decimal = as_.newLabel();
  as_.bind(loop);
  as_.emit(mov64(R3, R2));
  as_.emit(alu64(BPF_MOD, R3, R5));
  as_.jumpIf(BPF_JLT, R3, 10, decimal);
  as_.emit(alu64(BPF_ADD, R3, 'a' - '0' - 10));
  as_.bind(decimal);
  as_.emit(alu64(BPF_ADD, R3, '0'));
  as_.emit(mov64(R4, R10));
  as_.emit(alu64(BPF_ADD, R4, R1));
  as_.emit(stx(Size::B, R4, buf, R3));
  as_.emit(alu64(BPF_DIV, R2, R5));
  as_.jumpIf(BPF_JEQ, R2, 0, done);
  as_.jumpIf(BPF_JLE, R1, 3, done);  // bounds the loop; room for a prefix
  as_.emit(alu64(BPF_SUB, R1, 1));
  as_.jump(loop);
  as_.bind(done);
  // The prefix, before the digits: "-", "0x" or "0".
  auto prepend = [&](char c) {
    as_.emit(alu64(BPF_SUB, R1, 1));
    as_.emit(mov64(R4, R10));
    as_.emit(alu64(BPF_ADD, R4, R1));
    as_.emit(st(Size::B, R4, buf, c));
  };
  Label notHex = as_.newLabel(), notOctal = as_.newLabel(), prefixed = as_.newLabel();
  as_.jumpIf(BPF_JNE, R5, 16, notHex);
  prepend('x');
  prepend('0');
  as_.jump(prefixed);
  as_.bind(notHex);
  as_.jumpIf(BPF_JNE, R5, 8, notOctal);
  as_.jumpIf(BPF_JEQ, R6, 0, prefixed);
  prepend('0');
  as_.jump(prefixed);
  as_.bind(notOctal);
  as_.jumpIf(BPF_JNE, R5, 10, prefixed);
  as_.jumpIf(BPF_JSGE, R6, 0, prefixed);
  prepend('-');
  as_.bind(prefixed);
  as_.emit(mov64(R3, R10));
  as_.emit(alu64(BPF_ADD, R3, buf));
  as_.emit(alu64(BPF_ADD, R3, R1));
  as_.emit(mov64(R1, base));
  as_.emit(alu64(BPF_ADD, R1, offset));
  as_.emit(mov64(R2, static_cast<int32_t>(std::min<uint32_t>(size, kDigits))));
  as_.emit(bpf::call(BPF_FUNC_probe_read_kernel_str));
  for (int i = 0; i < kSlots + 2; i++) popSlot();
}

// s[i]: the character at i of the string, or 0 at or beyond strsize. The
// index is evaluated first: the string's temporary area is the one other
// string operations use.
void ProgramEmitter::stringCharacter(const Expr& call) {
  const int32_t temp = static_cast<int32_t>(layout_.stringTempOffset);
  const uint32_t size = std::min(layout_.stringTempSize, types_.stringBufferSize());
  value(*call.operands[1]);
  const int16_t slot = pushSlot();
  as_.emit(stx(Size::DW, R10, slot, R6));
  unsetStringRead_ = {false, slot, std::nullopt};  // a NULL string faults at address i
  stringInto(*call.operands[0], R9, temp, size);
  as_.emit(ldx(Size::DW, R1, R10, slot));
  popSlot();
  Label outside = as_.newLabel(), done = as_.newLabel();
  as_.jumpIf(BPF_JGE, R1, static_cast<int32_t>(size), outside);
  as_.emit(alu64(BPF_ADD, R1, R9));
  as_.emit(ldx(Size::B, R6, R1, static_cast<int16_t>(temp)));
  normalize(R6, call.type);
  as_.jump(done);
  as_.bind(outside);
  as_.emit(mov64(R6, 0));
  as_.bind(done);
}

void ProgramEmitter::subroutineValue(const Expr& call) {
  using S = ir::Subroutine;
  if (!call.subroutine) {
    fail("subroutine " + call.text + "( ) has no integer value");
    return;
  }
  switch (*call.subroutine) {
    case S::StringCharacter:
      stringCharacter(call);
      return;
    case S::Strlen: {
      // Bounded by strsize (the buffer is rounded up to whole words), so that
      // a literal counts what a string variable would keep of it.
      const int32_t temp = static_cast<int32_t>(layout_.stringTempOffset);
      const uint32_t size = std::min(layout_.stringTempSize, types_.stringBufferSize());
      stringInto(*call.operands[0], R9, temp, size);
      stringLength(R9, temp, size);
      return;
    }
    case S::Speculation:
      speculationValue();
      return;
    case S::Rand:
      // A pseudo-random int in illumos's range, [0, 1771875): its
      // DIF_SUBR_RAND reduces a value modulo 1771875, so it is never
      // negative and rand() % n buckets are 0..n-1.
      as_.emit(bpf::call(BPF_FUNC_get_prandom_u32));
      as_.emit(mov64(R6, R0));
      as_.emit(alu64(BPF_MOD, R6, kRandModulus));
      return;
    case S::Htons:
    case S::Htonl:
    case S::Htonll:
    case S::Ntohs:
    case S::Ntohl:
    case S::Ntohll:
      value(*call.operands[0]);
      as_.emit(toBigEndian(R6, static_cast<int32_t>(call.type->size * 8)));
      normalize(R6, call.type);
      return;
    case S::Index:
    case S::Rindex:
      stringSearch(call);
      normalize(R6, call.type);
      return;
    case S::Strtoll:
      stringToInteger(call);
      return;
    case S::Getmajor:
    case S::Getminor:
      // Linux's kernel-internal dev_t: 12 bits of major above 20 of minor.
      value(*call.operands[0]);
      if (*call.subroutine == S::Getmajor) {
        as_.emit(alu64(BPF_RSH, R6, 20));
        as_.emit(alu64(BPF_AND, R6, 0xfff));
      } else {
        as_.emit(alu64(BPF_AND, R6, 0xfffff));
      }
      return;
    default:
      break;
  }
  if (memorySubroutine(call)) return;
  fail("subroutine " + call.text + "( ) has no integer value");
}

// ---- helpers shared by the subroutines' files ----

// computeLayout's scan gives as many levels as the program nests these
// subroutines.
int32_t ProgramEmitter::subrArea(int which) {
  if (subrDepth_ >= layout_.subrLevels) {
    fail("internal error: string subroutines nested deeper than their scratch areas");
    return static_cast<int32_t>(layout_.subrOffset);
  }
  return static_cast<int32_t>(layout_.subrOffset + (subrDepth_ * 2 + static_cast<uint32_t>(which)) *
                                                       layout_.subrAreaSize);
}

void ProgramEmitter::operandInto(const Expr& e, int which) {
  const int32_t area = subrArea(which);
  subrDepth_++;
  stringInto(e, R9, area, layout_.stringTempSize);
  subrDepth_--;
}

void ProgramEmitter::operandValue(const Expr& e) {
  subrDepth_++;
  value(e);
  subrDepth_--;
}

// start and count are r6 and r8; base may be r7 or r9.
void ProgramEmitter::copySlice(int32_t area, Reg start, Reg count, Reg base, int32_t offset,
                               uint32_t size) {
  Label low = as_.newLabel(), fits = as_.newLabel();
  as_.emit(mov64(R2, count));
  as_.emit(alu64(BPF_ADD, R2, 1));  // and the NUL
  as_.jumpIf(BPF_JSGE, R2, 1, low);
  as_.emit(mov64(R2, 1));
  as_.bind(low);
  as_.jumpIf(BPF_JLE, R2, static_cast<int32_t>(size), fits);
  as_.emit(mov64(R2, static_cast<int32_t>(size)));
  as_.bind(fits);
  scratchAddress();  // a plain number: the start need not be bounded
  as_.emit(mov64(R3, R0));
  as_.emit(alu64(BPF_ADD, R3, area));
  as_.emit(alu64(BPF_ADD, R3, start));
  as_.emit(mov64(R1, base));
  as_.emit(alu64(BPF_ADD, R1, offset));
  as_.emit(bpf::call(BPF_FUNC_probe_read_kernel_str));
}

// A pointer stored into a map value and read back is a plain number to the
// verifier (allowed for root), which is what a D pointer is.
void ProgramEmitter::scratchAddress() {
  as_.emit(mov64(R0, R9));
  plainAddress(R0);
}

// The verifier lets a pointer into a map only be moved and offset; an
// address D code computes with is a number. Stored into scratch memory and
// loaded back, the pointer is just that (the kernel lets privileged
// programs do so).
void ProgramEmitter::plainAddress(Reg r) {
  const int16_t slot = static_cast<int16_t>(layout_.selfAddressOffset);
  as_.emit(stx(Size::DW, R9, slot, r));
  as_.emit(ldx(Size::DW, r, R9, slot));
}

}  // namespace dtrace::codegen
