// Aggregation keys that name code merge by what they name, as DTrace's
// consumer normalizes them (dt_aggregate_sym, _mod, _usym, _umod).
#include "consume/symbol_keys.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "consume/aggregation_snapshot.h"
#include "sym/kernel_symbols.h"

extern "C" __attribute__((noinline)) int keysTestKnownFunction(int x) { return x * 5 + 3; }

namespace dtrace::consume {
namespace {

ir::Aggregation keysOf(std::vector<std::pair<ir::DataKind, uint32_t>> kinds) {
  ir::Aggregation agg;
  uint32_t offset = 0;
  for (auto [kind, size] : kinds) {
    ir::Field f;
    f.kind = kind;
    f.offset = offset;
    f.size = size;
    agg.keys.push_back(f);
    offset += size;
  }
  agg.keySize = offset;
  return agg;
}

TEST(SymbolKeys, KernelKeysBecomeTheirFunctionOrModule) {
  const sym::KernelSymbols& kernel = sym::KernelSymbols::get();
  std::optional<sym::KernelSymbol> f = kernel.find("do_syscall_64");
  ASSERT_TRUE(f);
  ir::Aggregation agg = keysOf({{ir::DataKind::KernelSymbol, 8},
                                {ir::DataKind::KernelModule, 8},
                                {ir::DataKind::Unsigned, 8}});
  ASSERT_TRUE(SymbolKeys::merges(agg));
  uint64_t key[3] = {f->address + 0x21, f->address + 0x21, f->address + 0x21};
  SymbolKeys(nullptr).normalize(agg, reinterpret_cast<uint8_t*>(key));
  EXPECT_EQ(key[0], f->address);
  EXPECT_EQ(key[1], kernel.moduleAddress("vmlinux"));
  EXPECT_EQ(key[2], f->address + 0x21);  // an integer key is left alone
}

TEST(SymbolKeys, UserKeysBecomeTheirFunctionOrMapping) {
  sym::UserSymbols user;
  const uint64_t pid = static_cast<uint64_t>(getpid());
  const uint64_t fn = reinterpret_cast<uint64_t>(&keysTestKnownFunction);
  ir::Aggregation agg = keysOf({{ir::DataKind::UserSymbol, 16},
                                {ir::DataKind::UserModule, 16},
                                {ir::DataKind::UserAddress, 16}});
  uint64_t key[6] = {pid, fn + 3, pid, fn + 3, pid, fn + 3};
  SymbolKeys(&user).normalize(agg, reinterpret_cast<uint8_t*>(key));
  EXPECT_EQ(key[0], pid);
  EXPECT_EQ(key[1], fn);
  EXPECT_EQ(key[3], user.lookup(static_cast<int>(pid), fn).mappingAddress);
  EXPECT_EQ(key[5], fn + 3);  // uaddr() keeps its offset
  EXPECT_FALSE(SymbolKeys::merges(keysOf({{ir::DataKind::UserStack, 24}})));
}

// Entries whose keys merged on one CPU add up.
TEST(SymbolKeys, MergedEntriesOfOneCpuFold) {
  ir::Aggregation agg = keysOf({{ir::DataKind::KernelSymbol, 8}});
  agg.func = ir::AggFunc::Count;
  AggregationData data(&agg, 2, true);
  const uint64_t key = 0x1000;
  const size_t i = data.add(reinterpret_cast<const uint8_t*>(&key));
  const int64_t one = 1, two = 2;
  data.fold(i, 0, CpuSlot::Current, &one);
  data.fold(i, 0, CpuSlot::Current, &two);
  data.fold(i, 1, CpuSlot::Cleared, &two);
  EXPECT_EQ(*data.data(i, 0), 3);
  EXPECT_EQ(data.slot(i, 1), CpuSlot::Cleared);
}

}  // namespace
}  // namespace dtrace::consume
