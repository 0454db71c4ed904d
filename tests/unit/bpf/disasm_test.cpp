#include "bpf/disasm.h"

#include <gtest/gtest.h>

#include <vector>

#include "bpf/btf_name_index.h"
#include "bpf/helpers.h"

namespace dtrace::bpf {
namespace {

std::string one(const Insn& insn) { return disassembleOne(insn, nullptr); }

TEST(DisasmTest, AluLines) {
  EXPECT_EQ(one(mov64(R6, R1)), "(bf) r6 = r1");
  EXPECT_EQ(one(mov64(R0, 0)), "(b7) r0 = 0");
  EXPECT_EQ(one(alu64(BPF_ADD, R1, -8)), "(07) r1 += -8");
  EXPECT_EQ(one(mov32(R1, -1)), "(b4) w1 = -1");
  EXPECT_EQ(one(alu32(BPF_XOR, R3, R4)), "(ac) w3 ^= w4");
  EXPECT_EQ(one(alu64(BPF_ARSH, R2, 3)), "(c7) r2 s>>= 3");
  EXPECT_EQ(one(alu64(BPF_MOD, R2, R3)), "(9f) r2 %= r3");
  EXPECT_EQ(one(neg64(R5)), "(87) r5 = -r5");
  EXPECT_EQ(one(toBigEndian(R0, 16)), "(dc) r0 = be16 r0");
}

TEST(DisasmTest, MemoryLines) {
  EXPECT_EQ(one(ldx(Size::DW, R0, R10, -8)), "(79) r0 = *(u64 *)(r10 -8)");
  EXPECT_EQ(one(ldx(Size::B, R2, R1, 0)), "(71) r2 = *(u8 *)(r1 +0)");
  EXPECT_EQ(one(stx(Size::DW, R10, -16, R1)), "(7b) *(u64 *)(r10 -16) = r1");
  EXPECT_EQ(one(st(Size::W, R10, -4, 0)), "(62) *(u32 *)(r10 -4) = 0");
  EXPECT_EQ(one(atomicAdd64(R0, 0, R1)), "(db) lock *(u64 *)(r0 +0) += r1");
  EXPECT_EQ(one(atomicAdd32(R0, 4, R1)), "(c3) lock *(u32 *)(r0 +4) += r1");
  EXPECT_EQ(one(atomicFetchAdd64(R0, 0, R1)), "(db) r1 = atomic64_fetch_add((u64 *)(r0 +0), r1)");
  EXPECT_EQ(one(atomicCmpxchg64(R1, 8, R2)), "(db) r0 = atomic64_cmpxchg((u64 *)(r1 +8), r0, r2)");
  EXPECT_EQ(one(atomicXchg64(R1, 0, R3)), "(db) r3 = atomic64_xchg((u64 *)(r1 +0), r3)");
  EXPECT_EQ(one(atomicXchg32(R1, 0, R3)), "(c3) r3 = atomic_xchg((u32 *)(r1 +0), r3)");
}

TEST(DisasmTest, JumpAndCallLines) {
  EXPECT_EQ(one(jmp(BPF_JNE, R1, 0, 3)), "(55) if r1 != 0x0 goto pc+3");
  EXPECT_EQ(one(jmp(BPF_JEQ, R1, R2, -2)), "(1d) if r1 == r2 goto pc-2");
  EXPECT_EQ(one(jmp(BPF_JSGT, R1, -1, 0)), "(65) if r1 s> 0xffffffff goto pc+0");
  EXPECT_EQ(one(jmp32(BPF_JLT, R1, 10, 1)), "(a6) if w1 < 0xa goto pc+1");
  EXPECT_EQ(one(ja(5)), "(05) goto pc+5");
  EXPECT_EQ(one(call(BPF_FUNC_ringbuf_output)), "(85) call bpf_ringbuf_output#130");
  EXPECT_EQ(one(call(BPF_FUNC_map_lookup_elem)), "(85) call bpf_map_lookup_elem#1");
  EXPECT_EQ(one(call(100000)), "(85) call unknown#100000");
  EXPECT_EQ(one(exit()), "(95) exit");
}

// A kfunc call is named from the kernel's BTF where it can be.
TEST(DisasmTest, KernelFunctionCalls) {
  EXPECT_EQ(one(kfuncCall(0x7ffffff0)), "(85) call kernel-function#2147483632");
  auto btf = BtfNameIndex::openVmlinux();
  if (!btf) GTEST_SKIP() << "no kernel BTF";
  const std::optional<uint32_t> id = btf->find("bpf_rdonly_cast", BtfKind::Func);
  if (!id) GTEST_SKIP() << "no bpf_rdonly_cast in this kernel";
  EXPECT_EQ(one(kfuncCall(static_cast<int32_t>(*id))),
            "(85) call bpf_rdonly_cast#" + std::to_string(*id));
}

TEST(DisasmTest, ListingWithWideLoads) {
  std::vector<Insn> insns;
  insns.push_back(mov64(R6, R1));
  for (const Insn& i : ldImm64(R1, 0x1122334455667788ULL)) insns.push_back(i);
  for (const Insn& i : ldMapFd(R2, 999)) insns.push_back(i);
  for (const Insn& i : ldMapValue(R3, 998, 16)) insns.push_back(i);
  insns.push_back(exit());
  EXPECT_EQ(disassemble(insns),
            "   0: (bf) r6 = r1\n"
            "   1: (18) r1 = 0x1122334455667788\n"
            "   3: (18) r2 = map[fd:999]\n"
            "   5: (18) r3 = map[fd:998][0]+16\n"
            "   7: (95) exit\n");

  DisasmOptions options;
  options.showIndex = false;
  options.mapName = [](int fd) { return fd == 999 ? std::string("map[agg]") : std::string("?"); };
  std::vector<Insn> two(insns.begin() + 3, insns.begin() + 5);
  EXPECT_EQ(disassemble(two, options), "(18) r2 = map[agg]\n");
}

TEST(HelpersTest, NamesAndIds) {
  EXPECT_EQ(helperName(BPF_FUNC_ringbuf_output), "ringbuf_output");
  EXPECT_EQ(helperName(BPF_FUNC_map_lookup_elem), "map_lookup_elem");
  EXPECT_EQ(helperName(0), "");
  EXPECT_EQ(helperName(-3), "");
  EXPECT_EQ(helperId("ktime_get_ns"), BPF_FUNC_ktime_get_ns);
  EXPECT_EQ(helperId("bpf_get_current_pid_tgid"), BPF_FUNC_get_current_pid_tgid);
  EXPECT_FALSE(helperId("no_such_helper").has_value());
}

}  // namespace
}  // namespace dtrace::bpf
