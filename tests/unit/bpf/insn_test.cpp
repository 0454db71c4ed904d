#include "bpf/insn.h"

#include <gtest/gtest.h>

#include <array>
#include <cstring>

namespace dtrace::bpf {
namespace {

using Bytes = std::array<uint8_t, 8>;

Bytes bytesOf(const Insn& insn) {
  Bytes out;
  static_assert(sizeof(Insn) == 8);
  std::memcpy(out.data(), &insn, sizeof insn);
  return out;
}

TEST(InsnTest, MovesAndAlu) {
  EXPECT_EQ(bytesOf(mov64(R6, R1)), (Bytes{0xbf, 0x16, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(bytesOf(mov64(R0, 42)), (Bytes{0xb7, 0x00, 0, 0, 0x2a, 0, 0, 0}));
  EXPECT_EQ(bytesOf(mov32(R1, R2)), (Bytes{0xbc, 0x21, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(bytesOf(mov32(R1, -1)), (Bytes{0xb4, 0x01, 0, 0, 0xff, 0xff, 0xff, 0xff}));
  EXPECT_EQ(bytesOf(alu64(BPF_ADD, R1, -8)), (Bytes{0x07, 0x01, 0, 0, 0xf8, 0xff, 0xff, 0xff}));
  EXPECT_EQ(bytesOf(alu64(BPF_ADD, R1, R2)), (Bytes{0x0f, 0x21, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(bytesOf(alu64(BPF_ARSH, R2, 3)), (Bytes{0xc7, 0x02, 0, 0, 3, 0, 0, 0}));
  EXPECT_EQ(bytesOf(alu32(BPF_XOR, R3, R4)), (Bytes{0xac, 0x43, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(bytesOf(alu32(BPF_RSH, R3, 5)), (Bytes{0x74, 0x03, 0, 0, 5, 0, 0, 0}));
  EXPECT_EQ(bytesOf(neg64(R5)), (Bytes{0x87, 0x05, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(bytesOf(neg32(R5)), (Bytes{0x84, 0x05, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(bytesOf(toBigEndian(R0, 16)), (Bytes{0xdc, 0x00, 0, 0, 0x10, 0, 0, 0}));
  EXPECT_EQ(bytesOf(toLittleEndian(R0, 64)), (Bytes{0xd4, 0x00, 0, 0, 0x40, 0, 0, 0}));
}

TEST(InsnTest, LoadsAndStores) {
  EXPECT_EQ(bytesOf(ldx(Size::DW, R0, R10, -8)), (Bytes{0x79, 0xa0, 0xf8, 0xff, 0, 0, 0, 0}));
  EXPECT_EQ(bytesOf(ldx(Size::W, R2, R1, 4)), (Bytes{0x61, 0x12, 0x04, 0x00, 0, 0, 0, 0}));
  EXPECT_EQ(bytesOf(ldx(Size::H, R2, R1, 2)), (Bytes{0x69, 0x12, 0x02, 0x00, 0, 0, 0, 0}));
  EXPECT_EQ(bytesOf(ldx(Size::B, R2, R1, 1)), (Bytes{0x71, 0x12, 0x01, 0x00, 0, 0, 0, 0}));
  EXPECT_EQ(bytesOf(stx(Size::DW, R10, -16, R1)), (Bytes{0x7b, 0x1a, 0xf0, 0xff, 0, 0, 0, 0}));
  EXPECT_EQ(bytesOf(stx(Size::W, R10, -4, R3)), (Bytes{0x63, 0x3a, 0xfc, 0xff, 0, 0, 0, 0}));
  EXPECT_EQ(bytesOf(st(Size::W, R10, -4, 0)), (Bytes{0x62, 0x0a, 0xfc, 0xff, 0, 0, 0, 0}));
  EXPECT_EQ(bytesOf(st(Size::DW, R10, -8, 7)), (Bytes{0x7a, 0x0a, 0xf8, 0xff, 7, 0, 0, 0}));
  EXPECT_EQ(sizeBytes(Size::B), 1);
  EXPECT_EQ(sizeBytes(Size::DW), 8);
}

TEST(InsnTest, WideLoads) {
  auto imm = ldImm64(R1, 0x1122334455667788ULL);
  EXPECT_EQ(bytesOf(imm[0]), (Bytes{0x18, 0x01, 0, 0, 0x88, 0x77, 0x66, 0x55}));
  EXPECT_EQ(bytesOf(imm[1]), (Bytes{0, 0, 0, 0, 0x44, 0x33, 0x22, 0x11}));
  auto mapFd = ldMapFd(R1, 5);
  EXPECT_EQ(bytesOf(mapFd[0]), (Bytes{0x18, 0x11, 0, 0, 5, 0, 0, 0}));
  EXPECT_EQ(bytesOf(mapFd[1]), (Bytes{0, 0, 0, 0, 0, 0, 0, 0}));
  auto mapValue = ldMapValue(R2, 7, 16);
  EXPECT_EQ(bytesOf(mapValue[0]), (Bytes{0x18, 0x22, 0, 0, 7, 0, 0, 0}));
  EXPECT_EQ(bytesOf(mapValue[1]), (Bytes{0, 0, 0, 0, 0x10, 0, 0, 0}));
}

TEST(InsnTest, CallsAndJumps) {
  EXPECT_EQ(bytesOf(call(130)), (Bytes{0x85, 0, 0, 0, 0x82, 0, 0, 0}));
  EXPECT_EQ(bytesOf(exit()), (Bytes{0x95, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(bytesOf(ja(5)), (Bytes{0x05, 0, 0x05, 0, 0, 0, 0, 0}));
  EXPECT_EQ(bytesOf(jmp(BPF_JNE, R1, 0, 3)), (Bytes{0x55, 0x01, 0x03, 0, 0, 0, 0, 0}));
  EXPECT_EQ(bytesOf(jmp(BPF_JEQ, R1, R2, -2)), (Bytes{0x1d, 0x21, 0xfe, 0xff, 0, 0, 0, 0}));
  EXPECT_EQ(bytesOf(jmp(BPF_JSET, R4, 1, 0)), (Bytes{0x45, 0x04, 0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(bytesOf(jmp32(BPF_JLT, R1, 10, 1)), (Bytes{0xa6, 0x01, 0x01, 0, 0x0a, 0, 0, 0}));
  EXPECT_EQ(bytesOf(jmp32(BPF_JSGT, R1, R2, 4)), (Bytes{0x6e, 0x21, 0x04, 0, 0, 0, 0, 0}));
}

TEST(InsnTest, Atomics) {
  EXPECT_EQ(bytesOf(atomicAdd64(R0, 0, R1)), (Bytes{0xdb, 0x10, 0, 0, 0x00, 0, 0, 0}));
  EXPECT_EQ(bytesOf(atomicAdd32(R0, 4, R1)), (Bytes{0xc3, 0x10, 0x04, 0, 0x00, 0, 0, 0}));
  EXPECT_EQ(bytesOf(atomicFetchAdd64(R0, 0, R1)), (Bytes{0xdb, 0x10, 0, 0, 0x01, 0, 0, 0}));
  EXPECT_EQ(bytesOf(atomicOr64(R0, 0, R1)), (Bytes{0xdb, 0x10, 0, 0, 0x40, 0, 0, 0}));
  EXPECT_EQ(bytesOf(atomicAnd64(R0, 0, R1)), (Bytes{0xdb, 0x10, 0, 0, 0x50, 0, 0, 0}));
  EXPECT_EQ(bytesOf(atomicXor64(R0, 0, R1)), (Bytes{0xdb, 0x10, 0, 0, 0xa0, 0, 0, 0}));
  EXPECT_EQ(bytesOf(atomicCmpxchg64(R1, 8, R2)), (Bytes{0xdb, 0x21, 0x08, 0, 0xf1, 0, 0, 0}));
  EXPECT_EQ(bytesOf(atomicCmpxchg32(R1, 8, R2)), (Bytes{0xc3, 0x21, 0x08, 0, 0xf1, 0, 0, 0}));
  EXPECT_EQ(bytesOf(atomicXchg64(R1, 0, R3)), (Bytes{0xdb, 0x31, 0, 0, 0xe1, 0, 0, 0}));
  EXPECT_EQ(bytesOf(atomicXchg32(R1, -4, R3)), (Bytes{0xc3, 0x31, 0xfc, 0xff, 0xe1, 0, 0, 0}));
}

}  // namespace
}  // namespace dtrace::bpf
