#include "sym/kernel_symbols.h"

#include <gtest/gtest.h>

namespace dtrace::sym {
namespace {

// Every x86-64 kernel enters system calls through do_syscall_64.
TEST(KernelSymbols, NamesAKnownFunctionOfThisKernel) {
  const KernelSymbols& kernel = KernelSymbols::get();
  std::optional<KernelSymbol> entry = kernel.find("do_syscall_64");
  ASSERT_TRUE(entry) << "kallsyms hides addresses?";
  EXPECT_EQ(entry->module, "vmlinux");
  std::optional<KernelSymbol> inside = kernel.containing(entry->address + 0x10);
  ASSERT_TRUE(inside);
  EXPECT_EQ(inside->name, "do_syscall_64");
  EXPECT_EQ(inside->address, entry->address);
}

TEST(KernelSymbols, ModuleFunctionsNameTheirModule) {
  auto table = KernelSymbols::parse(
      "ffffffff81000000 T _stext\n"
      "ffffffff81000100 t vmlinux_helper\n"
      "ffffffff81000200 D some_data\n"
      "ffffffffc0001000 t mod_init_one\t[mymod]\n"
      "ffffffffc0001080 T mod_work\t[mymod]\n"
      "ffffffffc0002000 t other_fn\t[othermod]\n");
  std::optional<KernelSymbol> s = table->containing(0xffffffffc0001090);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->module, "mymod");
  EXPECT_EQ(s->name, "mod_work");
  EXPECT_EQ(s->address, 0xffffffffc0001080u);
  EXPECT_EQ(table->moduleAddress("mymod"), 0xffffffffc0001000u);
  EXPECT_EQ(table->moduleAddress("vmlinux"), 0xffffffff81000000u);
  EXPECT_FALSE(table->moduleAddress("absent"));
  // Data symbols are not functions: the function before runs on.
  std::optional<KernelSymbol> v = table->containing(0xffffffff81000210);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->name, "vmlinux_helper");
  EXPECT_FALSE(table->containing(0xffffffff80000000));
}

}  // namespace
}  // namespace dtrace::sym
