// Builders for single eBPF instructions. Every function returns the exact
// `struct bpf_insn` the kernel expects, so the code generator never touches
// opcode bits itself.
#pragma once

#include <linux/bpf.h>

#include <array>
#include <cstdint>

namespace dtrace::bpf {

using Insn = bpf_insn;

enum Reg : uint8_t { R0, R1, R2, R3, R4, R5, R6, R7, R8, R9, R10 };

enum class Size : uint8_t { B = BPF_B, H = BPF_H, W = BPF_W, DW = BPF_DW };

// Bytes moved by a load or store of the given size.
int sizeBytes(Size size);

// Raw constructor; the named builders below are preferred.
Insn makeInsn(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm);

Insn mov64(Reg dst, Reg src);
Insn mov64(Reg dst, int32_t imm);
Insn mov32(Reg dst, Reg src);
Insn mov32(Reg dst, int32_t imm);

// op is one of BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_OR, BPF_AND, BPF_LSH,
// BPF_RSH, BPF_MOD, BPF_XOR, BPF_MOV, BPF_ARSH.
Insn alu64(uint8_t op, Reg dst, Reg src);
Insn alu64(uint8_t op, Reg dst, int32_t imm);
Insn alu32(uint8_t op, Reg dst, Reg src);
Insn alu32(uint8_t op, Reg dst, int32_t imm);
Insn neg64(Reg dst);
Insn neg32(Reg dst);

// Byte-order conversion of the low `bits` (16, 32 or 64) of dst.
Insn toBigEndian(Reg dst, int32_t bits);
Insn toLittleEndian(Reg dst, int32_t bits);

// dst = *(size *)(src + off)
Insn ldx(Size size, Reg dst, Reg src, int16_t off);
// *(size *)(dst + off) = src
Insn stx(Size size, Reg dst, int16_t off, Reg src);
// *(size *)(dst + off) = imm
Insn st(Size size, Reg dst, int16_t off, int32_t imm);

// The two-slot 64-bit immediate load and its map-reference forms, which the
// kernel rewrites to map pointers at load time.
std::array<Insn, 2> ldImm64(Reg dst, uint64_t imm);
std::array<Insn, 2> ldMapFd(Reg dst, int mapFd);
std::array<Insn, 2> ldMapValue(Reg dst, int mapFd, uint32_t offset);

Insn call(int32_t helperId);
// A call of the kernel function (kfunc) with that vmlinux BTF id.
Insn kfuncCall(int32_t btfId);
Insn exit();

// Jumps with explicit offsets (relative to the next instruction). The
// Assembler fills offsets from labels; these are for hand-written code.
Insn ja(int16_t off);
// Unconditional jump with a 32-bit offset (gotol, cpu v4: kernel 6.6+).
Insn gotol(int32_t off);
Insn jmp(uint8_t op, Reg a, int32_t imm, int16_t off);
Insn jmp(uint8_t op, Reg a, Reg b, int16_t off);
Insn jmp32(uint8_t op, Reg a, int32_t imm, int16_t off);
Insn jmp32(uint8_t op, Reg a, Reg b, int16_t off);

// Atomic read-modify-write on memory at dst+off.
Insn atomicAdd64(Reg dst, int16_t off, Reg src);       // lock *(u64 *)(dst+off) += src
Insn atomicAdd32(Reg dst, int16_t off, Reg src);       // lock *(u32 *)(dst+off) += src
Insn atomicFetchAdd64(Reg dst, int16_t off, Reg src);  // src = fetch_add(dst+off, src)
Insn atomicOr64(Reg dst, int16_t off, Reg src);
Insn atomicAnd64(Reg dst, int16_t off, Reg src);
Insn atomicXor64(Reg dst, int16_t off, Reg src);
Insn atomicCmpxchg64(Reg dst, int16_t off, Reg src);  // r0 = cmpxchg(dst+off, r0, src)
Insn atomicCmpxchg32(Reg dst, int16_t off, Reg src);
Insn atomicXchg64(Reg dst, int16_t off, Reg src);  // src = xchg(dst+off, src)
Insn atomicXchg32(Reg dst, int16_t off, Reg src);

}  // namespace dtrace::bpf
