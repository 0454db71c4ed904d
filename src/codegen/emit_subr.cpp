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

// strjoin(a, b): a, then as much of b as fits, NUL-terminated.
// toupper(s), tolower(s): s with ASCII letters changed.
bool ProgramEmitter::subroutineString(const Expr& call, Reg base, int32_t offset, uint32_t size) {
  const std::string& name = call.text;
  if (searchString(call, base, offset, size) || pathString(call, base, offset, size) ||
      inetString(call, base, offset, size)) {
    return true;
  }
  if (name == "strtok") {
    tokenize(call, base, offset, size);
    return true;
  }
  if (name == "toupper" || name == "tolower") {
    stringInto(*call.operands[0], base, offset, size);
    changeCase(name == "toupper", base, offset, size);
    return true;
  }
  if (name == "substr") {
    substring(call, base, offset, size);
    return true;
  }
  if (name == "lltostr") {
    integerToString(*call.operands[0], base, offset, size);
    return true;
  }
  if (name != "strjoin") return false;
  if (joinDepth_ >= kMaxJoinDepth) {
    fail("strjoin( ) calls are nested too deeply");
    return true;
  }
  // This level's area: the joined string (two string sizes, so that b can
  // be appended at any length of a), then b.
  const uint32_t n = layout_.stringTempSize;
  const int32_t joined = static_cast<int32_t>(layout_.joinOffset + joinDepth_ * 3 * n);
  const int32_t second = joined + static_cast<int32_t>(2 * n);
  joinDepth_++;
  for (uint32_t off = 0; off < n; off += 8) {
    as_.emit(st(Size::DW, R9, static_cast<int16_t>(joined + off), 0));
  }
  stringInto(*call.operands[0], R9, joined, n);
  stringInto(*call.operands[1], R9, second, n);
  joinDepth_--;
  stringLength(R9, joined, n);
  as_.emit(mov64(R1, R9));
  as_.emit(alu64(BPF_ADD, R1, R6));
  as_.emit(alu64(BPF_ADD, R1, joined));
  as_.emit(mov64(R2, static_cast<int32_t>(n)));
  as_.emit(mov64(R3, R9));
  as_.emit(alu64(BPF_ADD, R3, second));
  as_.emit(bpf::call(BPF_FUNC_probe_read_kernel_str));
  as_.emit(mov64(R3, R9));
  as_.emit(alu64(BPF_ADD, R3, joined));
  as_.emit(mov64(R1, base));
  as_.emit(alu64(BPF_ADD, R1, offset));
  as_.emit(mov64(R2, static_cast<int32_t>(size)));
  as_.emit(bpf::call(BPF_FUNC_probe_read_kernel_str));
  return true;
}

// substr(s, i[, len]): from index i (counted from the end when negative)
// for len bytes or to the end; out of range gives "".
void ProgramEmitter::substring(const Expr& call, Reg base, int32_t offset, uint32_t size) {
  const uint32_t n = layout_.stringTempSize;
  const int32_t temp = static_cast<int32_t>(layout_.stringTempOffset);
  const int16_t startSlot = pushSlot(), countSlot = pushSlot();
  value(*call.operands[1]);
  as_.emit(stx(Size::DW, R10, startSlot, R6));
  constant(n);
  if (call.operands.size() == 3) value(*call.operands[2]);
  as_.emit(stx(Size::DW, R10, countSlot, R6));
  stringInto(*call.operands[0], R9, temp, n);
  stringLength(R9, temp, n);  // r6 = length
  Label positive = as_.newLabel(), inRange = as_.newLabel(), haveCount = as_.newLabel(),
        countOk = as_.newLabel();
  as_.emit(ldx(Size::DW, R1, R10, startSlot));
  as_.jumpIf(BPF_JSGE, R1, 0, positive);
  as_.emit(alu64(BPF_ADD, R1, R6));  // from the end
  as_.jumpIf(BPF_JSGE, R1, 0, positive);
  as_.emit(mov64(R1, 0));
  as_.bind(positive);
  as_.jumpIf(BPF_JLE, R1, R6, inRange);
  as_.emit(mov64(R1, R6));  // past the end: the NUL, so ""
  as_.bind(inRange);
  as_.emit(ldx(Size::DW, R2, R10, countSlot));
  as_.jumpIf(BPF_JSGE, R2, 0, haveCount);
  as_.emit(mov64(R2, 0));
  as_.bind(haveCount);
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

// lltostr(n): the decimal digits of a signed 64-bit integer, built from the
// end of a stack buffer (at most 20 digits and a sign).
void ProgramEmitter::integerToString(const Expr& number, Reg base, int32_t offset, uint32_t size) {
  constexpr int kDigits = 24;
  const int16_t buf = pushSlot();
  pushSlot();
  pushSlot();  // three slots: 24 bytes, buf is the lowest address
  const int16_t low = static_cast<int16_t>(buf - 16);
  value(number);
  as_.emit(st(Size::DW, R10, low, 0));
  as_.emit(st(Size::DW, R10, static_cast<int16_t>(low + 8), 0));
  as_.emit(st(Size::DW, R10, static_cast<int16_t>(low + 16), 0));
  as_.emit(mov64(R2, R6));  // magnitude, as unsigned
  Label nonNegative = as_.newLabel();
  as_.jumpIf(BPF_JSGE, R6, 0, nonNegative);
  as_.emit(neg64(R2));
  as_.bind(nonNegative);
  as_.emit(mov64(R1, kDigits - 2));  // index of the last digit (the NUL follows)
  Label loop = as_.newLabel(), done = as_.newLabel();
  as_.bind(loop);
  as_.emit(mov64(R3, R2));
  as_.emit(alu64(BPF_MOD, R3, 10));
  as_.emit(alu64(BPF_ADD, R3, '0'));
  as_.emit(mov64(R4, R10));
  as_.emit(alu64(BPF_ADD, R4, R1));
  as_.emit(stx(Size::B, R4, low, R3));
  as_.emit(alu64(BPF_DIV, R2, 10));
  as_.jumpIf(BPF_JEQ, R2, 0, done);
  as_.jumpIf(BPF_JEQ, R1, 1, done);  // bounds the loop for the verifier
  as_.emit(alu64(BPF_SUB, R1, 1));
  as_.jump(loop);
  as_.bind(done);
  Label unsignedDone = as_.newLabel();
  as_.jumpIf(BPF_JSGE, R6, 0, unsignedDone);
  as_.emit(alu64(BPF_SUB, R1, 1));
  as_.emit(mov64(R4, R10));
  as_.emit(alu64(BPF_ADD, R4, R1));
  as_.emit(st(Size::B, R4, low, '-'));
  as_.bind(unsignedDone);
  as_.emit(mov64(R3, R10));
  as_.emit(alu64(BPF_ADD, R3, low));
  as_.emit(alu64(BPF_ADD, R3, R1));
  as_.emit(mov64(R1, base));
  as_.emit(alu64(BPF_ADD, R1, offset));
  as_.emit(mov64(R2, static_cast<int32_t>(std::min<uint32_t>(size, kDigits))));
  as_.emit(bpf::call(BPF_FUNC_probe_read_kernel_str));
  popSlot();
  popSlot();
  popSlot();
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
  if (name == "index" || name == "rindex") {
    stringSearch(call);
    normalize(R6, call.type);
    return;
  }
  if (name == "strtoll") {
    stringToInteger(call);
    return;
  }
  if (name == "getmajor" || name == "getminor") {
    // Linux's kernel-internal dev_t: 12 bits of major above 20 of minor.
    value(*call.operands[0]);
    if (name == "getmajor") {
      as_.emit(alu64(BPF_RSH, R6, 20));
      as_.emit(alu64(BPF_AND, R6, 0xfff));
    } else {
      as_.emit(alu64(BPF_AND, R6, 0xfffff));
    }
    return;
  }
  if (memorySubroutine(call)) return;
  fail("subroutine " + call.text + "( ) has no integer value");
}

// ---- helpers shared by the subroutines' files ----

int32_t ProgramEmitter::subrArea(int which) const {
  return static_cast<int32_t>(layout_.subrOffset +
                              (std::min(subrDepth_, kMaxSubrDepth - 1) * 2 + which) *
                                  layout_.subrAreaSize);
}

void ProgramEmitter::operandInto(const Expr& e, int which) {
  const int32_t area = subrArea(which);
  if (subrDepth_ >= kMaxSubrDepth) {
    fail("string subroutine calls are nested too deeply");
    return;
  }
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
  const int16_t self = static_cast<int16_t>(layout_.selfAddressOffset);
  as_.emit(stx(Size::DW, R9, self, R9));
  as_.emit(ldx(Size::DW, R0, R9, self));
}

}  // namespace dtrace::codegen
