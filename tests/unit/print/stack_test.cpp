// Stacks and symbols as DTrace prints them: frames one per line under a
// newline, symbol values in "  %-50s", DTrace's fallbacks for addresses
// nothing names, and %k, %A in printf().
#include "print/stack.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "print/printf.h"
#include "sym/kernel_symbols.h"

extern "C" __attribute__((noinline)) int printTestKnownFunction(int x) { return x + 7; }

namespace dtrace::print {
namespace {

uint64_t known() { return reinterpret_cast<uint64_t>(&printTestKnownFunction); }

// A field of `kind` holding `words` (the process id first for user kinds).
struct Record {
  ir::Field field;
  std::vector<uint8_t> data;
  Record(ir::DataKind kind, std::vector<uint64_t> words) {
    data.resize(words.size() * 8);
    std::memcpy(data.data(), words.data(), data.size());
    field.kind = kind;
    field.size = static_cast<uint32_t>(data.size());
  }
};

class StackPrintTest : public ::testing::Test {
 protected:
  sym::UserSymbols user;
  SymbolContext symbols{&user, 14, static_cast<int>(getpid())};
  const uint64_t pid = static_cast<uint64_t>(getpid());
};

TEST_F(StackPrintTest, UserFramesNameObjectFunctionAndOffset) {
  Record r(ir::DataKind::UserStack, {pid, known() + 2, known(), 0x10, 0, 0x20});
  std::string out;
  appendCodeAddress(out, r.field, r.data.data(), symbols);
  EXPECT_EQ(out,
            "\n"
            "              unit_print`printTestKnownFunction+0x2\n"
            "              unit_print`printTestKnownFunction\n"
            "              0x10\n");  // frames end at the first zero
}

TEST_F(StackPrintTest, WithoutUserSymbolsAddressesPrintInHex) {
  Record r(ir::DataKind::UserAddress, {pid, 0x1234});
  std::string out;
  appendCodeAddress(out, r.field, r.data.data(), SymbolContext{});
  EXPECT_EQ(out, "  0x1234" + std::string(44, ' '));
}

TEST_F(StackPrintTest, SymbolFunctionsPrintInFiftyColumns) {
  Record usym(ir::DataKind::UserSymbol, {pid, known() + 2});
  Record umod(ir::DataKind::UserModule, {pid, known() + 2});
  Record uaddr(ir::DataKind::UserAddress, {pid, known() + 2});
  std::string out;
  appendCodeAddress(out, usym.field, usym.data.data(), symbols);
  appendCodeAddress(out, umod.field, umod.data.data(), symbols);
  appendCodeAddress(out, uaddr.field, uaddr.data.data(), symbols);
  auto column = [](std::string s) { return "  " + s + std::string(50 - s.size(), ' '); };
  EXPECT_EQ(out, column("unit_print`printTestKnownFunction") + column("unit_print") +
                     column("unit_print`printTestKnownFunction+0x2"));
}

TEST_F(StackPrintTest, KernelFramesAndSymbols) {
  std::optional<sym::KernelSymbol> f = sym::KernelSymbols::get().find("do_syscall_64");
  ASSERT_TRUE(f);
  Record stack(ir::DataKind::KernelStack, {f->address + 0x20, 0});
  Record func(ir::DataKind::KernelSymbol, {f->address + 0x20});
  Record mod(ir::DataKind::KernelModule, {f->address + 0x20});
  symbols.stackIndent = 2;
  std::string out;
  appendCodeAddress(out, stack.field, stack.data.data(), symbols);
  appendCodeAddress(out, func.field, func.data.data(), symbols);
  appendCodeAddress(out, mod.field, mod.data.data(), symbols);
  EXPECT_EQ(out, "\n  vmlinux`do_syscall_64+0x20\n  vmlinux`do_syscall_64" + std::string(29, ' ') +
                     "  vmlinux" + std::string(43, ' '));
}

// %k formats each frame with the conversion; a left-justified width also
// indents. %A names an address of the target process.
TEST_F(StackPrintTest, PrintfConversions) {
  Record stack(ir::DataKind::UserStack, {pid, known() + 1});
  auto render = [&](const char* text, const ir::Field& f, const std::vector<uint8_t>& data) {
    auto parsed = ir::PrintfFormat::parse(text);
    std::string out;
    const std::vector<ir::Field> fields{f};
    EXPECT_TRUE(appendPrintf(out, std::get<ir::PrintfFormat>(parsed), fields, data.data(),
                             data.size(), {}, &symbols)
                    .ok());
    return out;
  };
  EXPECT_EQ(render("[%k]", stack.field, stack.data), "[\nunit_print`printTestKnownFunction+0x1\n]");
  EXPECT_EQ(render("[%-3k]", stack.field, stack.data),
            "[\n   unit_print`printTestKnownFunction+0x1\n]");
  EXPECT_EQ(render("[%40k]", stack.field, stack.data),
            "[\n   unit_print`printTestKnownFunction+0x1\n]");
  Record address(ir::DataKind::Unsigned, {known() + 2});
  EXPECT_EQ(render("%A", address.field, address.data), "unit_print`printTestKnownFunction+0x2");
}

}  // namespace
}  // namespace dtrace::print
