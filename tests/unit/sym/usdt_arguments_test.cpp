#include "sym/usdt_arguments.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace dtrace::sym {
namespace {

using Kind = UsdtArgument::Kind;

// Symbols the specs below name, as an object's symbol table would give them.
Result<uint64_t> lookupTestSymbol(std::string_view name) {
  static const std::map<std::string, uint64_t, std::less<>> kSymbols = {
      {"foo", 0x4000},
      {"arr", 0x5000},
      {"counter", 0x6100},
      {"foo.0", 0x7000},
      {"_GLOBAL_OFFSET_TABLE_", 0x6000},
  };
  auto it = kSymbols.find(name);
  if (it == kSymbols.end()) return makeError("no symbol '" + std::string(name) + "'");
  return it->second;
}

struct Case {
  const char* spec;
  Kind kind;
  uint8_t size;
  bool isSigned;
  int64_t constant = 0;
  int16_t reg = -1;
  int16_t index = -1;
  uint8_t scale = 1;
  int64_t displacement = 0;
  bool ripRelative = false;
  bool objectAddress = false;
  bool isFloat = false;
};

// Every form gcc and clang write on x86-64 (and i386), and the old
// notes' forms without a size.
const Case kCases[] = {
    // Registers.
    {"-4@%edi", Kind::Register, 4, true, 0, kPtRegsRdi},
    {"8@%rax", Kind::Register, 8, false, 0, kPtRegsRax},
    {"-1@%dil", Kind::Register, 1, true, 0, kPtRegsRdi},
    {"2@%ax", Kind::Register, 2, false, 0, kPtRegsRax},
    {"1@%ah", Kind::Register, 1, false, 0, kPtRegsRax + 1},
    {"-8@%r12", Kind::Register, 8, true, 0, kPtRegsR12},
    {"-4@%r8d", Kind::Register, 4, true, 0, kPtRegsR8},
    {"2@%r15w", Kind::Register, 2, false, 0, kPtRegsR15},
    {"1@%r9b", Kind::Register, 1, false, 0, kPtRegsR9},
    {"-4@%esp", Kind::Register, 4, true, 0, kPtRegsRsp},
    // Constants, as values of their size.
    {"-4@$5", Kind::Constant, 4, true, 5},
    {"8@$-1", Kind::Constant, 8, false, -1},
    {"-8@$-1", Kind::Constant, 8, true, -1},
    {"1@$-56", Kind::Constant, 1, false, 200},
    {"-1@$-56", Kind::Constant, 1, true, -56},
    {"4@$-1", Kind::Constant, 4, false, 0xffffffff},
    {"-2@$0x7fff", Kind::Constant, 2, true, 0x7fff},
    {"8@$010", Kind::Constant, 8, false, 8},
    {"8@$18446744073709551615", Kind::Constant, 8, false, -1},
    {"8@$foo", Kind::Constant, 8, false, 0x4000, -1, -1, 1, 0, false, true},
    {"8@$foo+16", Kind::Constant, 8, false, 0x4010, -1, -1, 1, 0, false, true},
    // Memory.
    {"8@-16(%rbp)", Kind::Memory, 8, false, 0, kPtRegsRbp, -1, 1, -16},
    {"-4@8(%rsp)", Kind::Memory, 4, true, 0, kPtRegsRsp, -1, 1, 8},
    {"8@(%rax)", Kind::Memory, 8, false, 0, kPtRegsRax},
    {"8@16(%rax,%rbx,8)", Kind::Memory, 8, false, 0, kPtRegsRax, kPtRegsRbx, 8, 16},
    {"-8@(%rax,%rdx,8)", Kind::Memory, 8, true, 0, kPtRegsRax, kPtRegsRdx, 8, 0},
    {"4@(%rsi,%r9)", Kind::Memory, 4, false, 0, kPtRegsRsi, kPtRegsR9, 1, 0},
    {"4@-4(,%rcx,4)", Kind::Memory, 4, false, 0, -1, kPtRegsRcx, 4, -4},
    {"4@0x20(%r13d)", Kind::Memory, 4, false, 0, kPtRegsR13, -1, 1, 32},
    // %rip: with a symbol, the symbol's address (the load bias to add);
    // with a number, relative to the probe's address.
    {"4@foo(%rip)", Kind::Memory, 4, false, 0, -1, -1, 1, 0x4000, false, true},
    {"8@foo+8(%rip)", Kind::Memory, 8, false, 0, -1, -1, 1, 0x4008, false, true},
    {"-8@arr+24(%rip)", Kind::Memory, 8, true, 0, -1, -1, 1, 0x5018, false, true},
    {"8@foo-8(%rip)", Kind::Memory, 8, false, 0, -1, -1, 1, 0x3ff8, false, true},
    {"-4@foo.0(%rip)", Kind::Memory, 4, true, 0, -1, -1, 1, 0x7000, false, true},
    {"4@12(%rip)", Kind::Memory, 4, false, 0, kPtRegsRip, -1, 1, 12, true, false},
    {"4@-12(%rip)", Kind::Memory, 4, false, 0, kPtRegsRip, -1, 1, -12, true, false},
    // Non-PIC code: absolute addresses, with and without registers.
    {"8@arr(,%rax,8)", Kind::Memory, 8, false, 0, -1, kPtRegsRax, 8, 0x5000, false, true},
    {"4@foo", Kind::Memory, 4, false, 0, -1, -1, 1, 0x4000, false, true},
    {"-4@counter+4", Kind::Memory, 4, true, 0, -1, -1, 1, 0x6104, false, true},
    // i386 PIC: an offset from the GOT, whose address a register holds.
    {"-4@counter@GOTOFF(%eax)", Kind::Memory, 4, true, 0, kPtRegsRax, -1, 1, 0x100},
    {"-4@12+arr@GOTOFF(%ebx)", Kind::Memory, 4, true, 0, kPtRegsRbx, -1, 1, 0x5000 + 12 - 0x6000},
    {"-4@8(%ebp)", Kind::Memory, 4, true, 0, kPtRegsRbp, -1, 1, 8},
    // Floating-point values (systemtap 4.x's "f").
    {"8f@%r9", Kind::Register, 8, false, 0, kPtRegsR9, -1, 1, 0, false, false, true},
    {"4f@-12(%rbp)", Kind::Memory, 4, false, 0, kPtRegsRbp, -1, 1, -12, false, false, true},
    {"-8f@foo(%rip)", Kind::Memory, 8, true, 0, -1, -1, 1, 0x4000, false, true, true},
    // Old notes: no size; a register's own width, else 8 bytes.
    {"%rdi", Kind::Register, 8, false, 0, kPtRegsRdi},
    {"%esi", Kind::Register, 4, false, 0, kPtRegsRsi},
    {"%cl", Kind::Register, 1, false, 0, kPtRegsRcx},
    {"$3", Kind::Constant, 8, false, 3},
    {"-8(%rbp)", Kind::Memory, 8, false, 0, kPtRegsRbp, -1, 1, -8},
    {"counter@GOTOFF(%eax)", Kind::Memory, 8, false, 0, kPtRegsRax, -1, 1, 0x100},
};

class UsdtArgumentForm : public testing::TestWithParam<Case> {};

TEST_P(UsdtArgumentForm, Parses) {
  const Case& c = GetParam();
  auto arg = parseUsdtArgument(c.spec, lookupTestSymbol);
  ASSERT_TRUE(arg.ok()) << arg.error().message;
  EXPECT_EQ(arg->kind, c.kind);
  EXPECT_EQ(arg->size, c.size);
  EXPECT_EQ(arg->isSigned, c.isSigned);
  EXPECT_EQ(arg->isFloat, c.isFloat);
  EXPECT_EQ(arg->constant, c.constant);
  EXPECT_EQ(arg->regOffset, c.reg);
  EXPECT_EQ(arg->indexOffset, c.index);
  EXPECT_EQ(arg->scale, c.scale);
  EXPECT_EQ(arg->displacement, c.displacement);
  EXPECT_EQ(arg->ripRelative, c.ripRelative);
  EXPECT_EQ(arg->objectAddress, c.objectAddress);
  EXPECT_EQ(arg->text, c.spec);
}

INSTANTIATE_TEST_SUITE_P(Specs, UsdtArgumentForm, testing::ValuesIn(kCases),
                         [](const testing::TestParamInfo<Case>& info) {
                           return "case" + std::to_string(info.index);
                         });

struct RegisterName {
  const char* name;
  int16_t offset;
  uint8_t width;
};

// Every general register by every name, at its pt_regs slot.
const RegisterName kRegisterNames[] = {
    {"rax", kPtRegsRax, 8},    {"eax", kPtRegsRax, 4},    {"ax", kPtRegsRax, 2},
    {"al", kPtRegsRax, 1},     {"ah", kPtRegsRax + 1, 1}, {"rbx", kPtRegsRbx, 8},
    {"ebx", kPtRegsRbx, 4},    {"bx", kPtRegsRbx, 2},     {"bl", kPtRegsRbx, 1},
    {"bh", kPtRegsRbx + 1, 1}, {"rcx", kPtRegsRcx, 8},    {"ecx", kPtRegsRcx, 4},
    {"cx", kPtRegsRcx, 2},     {"cl", kPtRegsRcx, 1},     {"ch", kPtRegsRcx + 1, 1},
    {"rdx", kPtRegsRdx, 8},    {"edx", kPtRegsRdx, 4},    {"dx", kPtRegsRdx, 2},
    {"dl", kPtRegsRdx, 1},     {"dh", kPtRegsRdx + 1, 1}, {"rsi", kPtRegsRsi, 8},
    {"esi", kPtRegsRsi, 4},    {"si", kPtRegsRsi, 2},     {"sil", kPtRegsRsi, 1},
    {"rdi", kPtRegsRdi, 8},    {"edi", kPtRegsRdi, 4},    {"di", kPtRegsRdi, 2},
    {"dil", kPtRegsRdi, 1},    {"rbp", kPtRegsRbp, 8},    {"ebp", kPtRegsRbp, 4},
    {"bp", kPtRegsRbp, 2},     {"bpl", kPtRegsRbp, 1},    {"rsp", kPtRegsRsp, 8},
    {"esp", kPtRegsRsp, 4},    {"sp", kPtRegsRsp, 2},     {"spl", kPtRegsRsp, 1},
};

TEST(UsdtArguments, EveryRegisterName) {
  for (const RegisterName& r : kRegisterNames) {
    auto arg = parseUsdtArgument(std::string("%") + r.name);
    ASSERT_TRUE(arg.ok()) << r.name << ": " << arg.error().message;
    EXPECT_EQ(arg->kind, Kind::Register) << r.name;
    EXPECT_EQ(arg->regOffset, r.offset) << r.name;
    EXPECT_EQ(arg->size, r.width) << r.name;
  }
  const int16_t numbered[] = {kPtRegsR8,  kPtRegsR9,  kPtRegsR10, kPtRegsR11,
                              kPtRegsR12, kPtRegsR13, kPtRegsR14, kPtRegsR15};
  for (int n = 8; n <= 15; n++) {
    const std::string base = "%r" + std::to_string(n);
    const std::pair<const char*, uint8_t> widths[] = {
        {"", 8}, {"d", 4}, {"w", 2}, {"b", 1}, {"l", 1}};
    for (auto [suffix, width] : widths) {
      auto arg = parseUsdtArgument(base + suffix);
      ASSERT_TRUE(arg.ok()) << base << suffix << ": " << arg.error().message;
      EXPECT_EQ(arg->regOffset, numbered[n - 8]) << base << suffix;
      EXPECT_EQ(arg->size, width) << base << suffix;
    }
  }
}

// Forms that are not understood give a message naming the spec.
TEST(UsdtArguments, UnknownFormsAreErrors) {
  const char* const bad[] = {
      "16@%rax",                  // no such size
      "3@%eax",                   //
      "2f@%ax",                   // no 2-byte floats
      "8@%xmm0",                  // not in pt_regs
      "8@%st",                    //
      "8@%bogus",                 //
      "8@%r16",                   //
      "8@%r7",                    //
      "8@%rip",                   // the instruction pointer as a value
      "8@%fs:8",                  // thread-local storage
      "8@%fs:foo@tpoff",          //
      "8@foo@GOTPCREL(%rip)",     // a GOT slot, not the value
      "8@(%rax",                  //
      "8@16(%rax,%rbx,3)",        // bad scale
      "8@16(%rax,%rsp,2)",        // %rsp cannot index
      "8@12(%rip,%rax,2)",        //
      "8@(%al)",                  // 8-bit base
      "8@()",                     //
      "8@",                       //
      "8@$",                      //
      "8@$1+",                    //
      "8@$1*2",                   //
      "8@unknown(%rip)",          // not in the symbol table
      "8@foo-arr(%rip)",          // two symbols
      "8@-foo(%rip)",             // a symbol subtracted
      "8@$99999999999999999999",  // too large
      "8@$12z",                   //
      "8@[sp, 8]",                // another architecture's syntax
      "x0",                       //
  };
  for (const char* spec : bad) {
    auto arg = parseUsdtArgument(spec, lookupTestSymbol);
    ASSERT_FALSE(arg.ok()) << spec;
    EXPECT_NE(arg.error().message.find(spec), std::string::npos) << arg.error().message;
  }
}

TEST(UsdtArguments, SymbolsNeedALookup) {
  auto arg = parseUsdtArgument("4@foo(%rip)");
  ASSERT_FALSE(arg.ok());
  EXPECT_NE(arg.error().message.find("foo"), std::string::npos) << arg.error().message;
}

TEST(UsdtArguments, ListsSplitOnSpaces) {
  UsdtArgumentList list = parseUsdtArguments("8@%rbp 8@%r12  -4@%eax", lookupTestSymbol);
  EXPECT_EQ(list.error, "");
  ASSERT_EQ(list.args.size(), 3u);
  EXPECT_EQ(list.args[0].regOffset, kPtRegsRbp);
  EXPECT_EQ(list.args[1].regOffset, kPtRegsR12);
  EXPECT_EQ(list.args[2].regOffset, kPtRegsRax);
  EXPECT_EQ(list.args[2].text, "-4@%eax");

  EXPECT_TRUE(parseUsdtArguments("").args.empty());
  EXPECT_EQ(parseUsdtArguments(" ").error, "");
}

TEST(UsdtArguments, ListsKeepTheArgumentsBeforeAnError) {
  UsdtArgumentList list = parseUsdtArguments("8@%rax 8@%xmm1 8@%rdi");
  ASSERT_EQ(list.args.size(), 1u);
  EXPECT_EQ(list.args[0].regOffset, kPtRegsRax);
  EXPECT_NE(list.error.find("argument 1"), std::string::npos) << list.error;
  EXPECT_NE(list.error.find("%xmm1"), std::string::npos) << list.error;
}

}  // namespace
}  // namespace dtrace::sym
