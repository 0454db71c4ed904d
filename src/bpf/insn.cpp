#include "bpf/insn.h"

namespace dtrace::bpf {
namespace {

uint8_t sizeCode(Size size) { return static_cast<uint8_t>(size); }

Insn atomic(Size size, int32_t op, Reg dst, int16_t off, Reg src) {
  return makeInsn(BPF_STX | BPF_ATOMIC | sizeCode(size), dst, src, off, op);
}

}  // namespace

int sizeBytes(Size size) {
  switch (size) {
    case Size::B:
      return 1;
    case Size::H:
      return 2;
    case Size::W:
      return 4;
    case Size::DW:
      return 8;
  }
  return 0;
}

Insn makeInsn(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm) {
  Insn insn{};
  insn.code = code;
  insn.dst_reg = dst & 0xf;
  insn.src_reg = src & 0xf;
  insn.off = off;
  insn.imm = imm;
  return insn;
}

Insn mov64(Reg dst, Reg src) { return alu64(BPF_MOV, dst, src); }
Insn mov64(Reg dst, int32_t imm) { return alu64(BPF_MOV, dst, imm); }
Insn mov32(Reg dst, Reg src) { return alu32(BPF_MOV, dst, src); }
Insn mov32(Reg dst, int32_t imm) { return alu32(BPF_MOV, dst, imm); }

Insn alu64(uint8_t op, Reg dst, Reg src) {
  return makeInsn(BPF_ALU64 | op | BPF_X, dst, src, 0, 0);
}
Insn alu64(uint8_t op, Reg dst, int32_t imm) {
  return makeInsn(BPF_ALU64 | op | BPF_K, dst, 0, 0, imm);
}
Insn alu32(uint8_t op, Reg dst, Reg src) { return makeInsn(BPF_ALU | op | BPF_X, dst, src, 0, 0); }
Insn alu32(uint8_t op, Reg dst, int32_t imm) {
  return makeInsn(BPF_ALU | op | BPF_K, dst, 0, 0, imm);
}
Insn neg64(Reg dst) { return makeInsn(BPF_ALU64 | BPF_NEG, dst, 0, 0, 0); }
Insn neg32(Reg dst) { return makeInsn(BPF_ALU | BPF_NEG, dst, 0, 0, 0); }

Insn toBigEndian(Reg dst, int32_t bits) {
  return makeInsn(BPF_ALU | BPF_END | BPF_TO_BE, dst, 0, 0, bits);
}
Insn toLittleEndian(Reg dst, int32_t bits) {
  return makeInsn(BPF_ALU | BPF_END | BPF_TO_LE, dst, 0, 0, bits);
}

Insn ldx(Size size, Reg dst, Reg src, int16_t off) {
  return makeInsn(BPF_LDX | BPF_MEM | sizeCode(size), dst, src, off, 0);
}
Insn stx(Size size, Reg dst, int16_t off, Reg src) {
  return makeInsn(BPF_STX | BPF_MEM | sizeCode(size), dst, src, off, 0);
}
Insn st(Size size, Reg dst, int16_t off, int32_t imm) {
  return makeInsn(BPF_ST | BPF_MEM | sizeCode(size), dst, 0, off, imm);
}

std::array<Insn, 2> ldImm64(Reg dst, uint64_t imm) {
  return {makeInsn(BPF_LD | BPF_IMM | BPF_DW, dst, 0, 0, static_cast<int32_t>(imm & 0xffffffff)),
          makeInsn(0, 0, 0, 0, static_cast<int32_t>(imm >> 32))};
}
std::array<Insn, 2> ldMapFd(Reg dst, int mapFd) {
  return {makeInsn(BPF_LD | BPF_IMM | BPF_DW, dst, BPF_PSEUDO_MAP_FD, 0, mapFd),
          makeInsn(0, 0, 0, 0, 0)};
}
std::array<Insn, 2> ldMapValue(Reg dst, int mapFd, uint32_t offset) {
  return {makeInsn(BPF_LD | BPF_IMM | BPF_DW, dst, BPF_PSEUDO_MAP_VALUE, 0, mapFd),
          makeInsn(0, 0, 0, 0, static_cast<int32_t>(offset))};
}

Insn call(int32_t helperId) { return makeInsn(BPF_JMP | BPF_CALL, 0, 0, 0, helperId); }
Insn kfuncCall(int32_t btfId) {
  return makeInsn(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, btfId);
}
Insn exit() { return makeInsn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0); }

Insn ja(int16_t off) { return makeInsn(BPF_JMP | BPF_JA, 0, 0, off, 0); }

Insn gotol(int32_t off) { return makeInsn(BPF_JMP32 | BPF_JA, 0, 0, 0, off); }
Insn jmp(uint8_t op, Reg a, int32_t imm, int16_t off) {
  return makeInsn(BPF_JMP | op | BPF_K, a, 0, off, imm);
}
Insn jmp(uint8_t op, Reg a, Reg b, int16_t off) {
  return makeInsn(BPF_JMP | op | BPF_X, a, b, off, 0);
}
Insn jmp32(uint8_t op, Reg a, int32_t imm, int16_t off) {
  return makeInsn(BPF_JMP32 | op | BPF_K, a, 0, off, imm);
}
Insn jmp32(uint8_t op, Reg a, Reg b, int16_t off) {
  return makeInsn(BPF_JMP32 | op | BPF_X, a, b, off, 0);
}

Insn atomicAdd64(Reg dst, int16_t off, Reg src) { return atomic(Size::DW, BPF_ADD, dst, off, src); }
Insn atomicAdd32(Reg dst, int16_t off, Reg src) { return atomic(Size::W, BPF_ADD, dst, off, src); }
Insn atomicFetchAdd64(Reg dst, int16_t off, Reg src) {
  return atomic(Size::DW, BPF_ADD | BPF_FETCH, dst, off, src);
}
Insn atomicOr64(Reg dst, int16_t off, Reg src) { return atomic(Size::DW, BPF_OR, dst, off, src); }
Insn atomicAnd64(Reg dst, int16_t off, Reg src) { return atomic(Size::DW, BPF_AND, dst, off, src); }
Insn atomicXor64(Reg dst, int16_t off, Reg src) { return atomic(Size::DW, BPF_XOR, dst, off, src); }
Insn atomicCmpxchg64(Reg dst, int16_t off, Reg src) {
  return atomic(Size::DW, BPF_CMPXCHG, dst, off, src);
}
Insn atomicCmpxchg32(Reg dst, int16_t off, Reg src) {
  return atomic(Size::W, BPF_CMPXCHG, dst, off, src);
}
Insn atomicXchg64(Reg dst, int16_t off, Reg src) {
  return atomic(Size::DW, BPF_XCHG, dst, off, src);
}
Insn atomicXchg32(Reg dst, int16_t off, Reg src) {
  return atomic(Size::W, BPF_XCHG, dst, off, src);
}

}  // namespace dtrace::bpf
