#include "print/value.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace dtrace::print {
namespace {

using ir::TypeInfo;
using ir::TypeKind;

// Lines after the first start at the data column (44), one more space per level.
std::string at(int depth) { return std::string(44 + depth, ' '); }

TypeInfo integer(const char* name, uint32_t size, bool isSigned) {
  TypeInfo t;
  t.kind = TypeKind::Integer;
  t.name = name;
  t.size = size;
  t.isSigned = isSigned;
  t.isChar = std::string(name) == "char";
  return t;
}

class PrintValueTest : public ::testing::Test {
 protected:
  uint32_t add(TypeInfo t) {
    types.push_back(std::move(t));
    return static_cast<uint32_t>(types.size() - 1);
  }
  template <class T>
  void put(uint32_t offset, T value) {
    if (bytes.size() < offset + sizeof value) bytes.resize(offset + sizeof value, 0);
    std::memcpy(bytes.data() + offset, &value, sizeof value);
  }
  std::string print(uint32_t type, std::optional<uint64_t> address = {}, uint64_t printSize = 0) {
    bytes.resize(types[type].size, 0);
    std::string out;
    appendPrintedValue(out, {types, type, bytes.data(), address, printSize});
    return out;
  }

  std::vector<TypeInfo> types;
  std::vector<uint8_t> bytes;
};

TEST_F(PrintValueTest, Scalars) {
  const uint32_t i = add(integer("int", 4, true));
  put(0, int32_t{-5});
  EXPECT_EQ(print(i), "(int)-5\n");
  const uint32_t u = add(integer("uint64_t", 8, false));
  put(0, uint64_t{18446744073709551615u});
  EXPECT_EQ(print(u), "(uint64_t)18446744073709551615\n");
  const uint32_t c = add(integer("char", 1, true));
  bytes.assign(1, '\n');
  EXPECT_EQ(print(c), "(char)'\\n'\n");
}

TEST_F(PrintValueTest, StructThroughAPointer) {
  const uint32_t i = add(integer("int", 4, true));
  const uint32_t c = add(integer("char", 1, true));
  TypeInfo arr{.kind = TypeKind::Array, .name = "char [3]", .size = 3, .element = c, .count = 3};
  const uint32_t a = add(arr);
  TypeInfo ptr{.kind = TypeKind::Pointer, .name = "void *", .size = 8};
  const uint32_t p = add(ptr);
  TypeInfo e{.kind = TypeKind::Enum, .name = "enum e", .size = 4, .isSigned = true};
  e.enumerators = {{"ONE", 1}, {"TWO", 2}};
  const uint32_t en = add(e);
  TypeInfo s{.kind = TypeKind::Struct, .name = "struct s", .size = 32};
  s.members = {{"i", i, 0, 0},   {"zero", i, 32, 0}, {"name", a, 64, 0},
               {"p", p, 128, 0}, {"e", en, 192, 0},  {"unknown", en, 224, 0}};
  const uint32_t st = add(s);
  put(0, int32_t{7});
  put(8, 'h');
  put(9, 'i');
  put(16, uint64_t{0xffff1234});
  put(24, int32_t{2});
  put(28, int32_t{9});
  EXPECT_EQ(print(st, 0xdead),
            "0xdead = *\n" + at(0) + "(struct s) {\n" +  //
                at(1) + ".i = (int)7,\n" +               // .zero is all zeros: left out
                at(1) + ".name = (char [3]) [\n" +       //
                at(2) + "(char)'h',\n" +                 //
                at(2) + "(char)'i',\n" +                 // the NUL ends a char array
                at(1) + "],\n" +                         //
                at(1) + ".p = (void *)0xffff1234,\n" +   //
                at(1) + ".e = (enum e)TWO,\n" +          //
                at(1) + ".unknown = (enum e)9,\n" +      //
                at(0) + "}\n");
}

TEST_F(PrintValueTest, NestedAggregatesAndBitFields) {
  const uint32_t u8 = add(integer("__u8", 1, false));
  const uint32_t u64 = add(integer("__u64", 8, false));
  const uint32_t bits = add(integer("int", 4, true));
  TypeInfo un{.kind = TypeKind::Union, .name = "union", .size = 8};
  un.members = {{"c", u8, 0, 0}, {"d", u64, 0, 0}};
  const uint32_t uu = add(un);
  TypeInfo s{.kind = TypeKind::Struct, .name = "struct t", .size = 16};
  s.members = {{"u", uu, 0, 0}, {"lo", bits, 64, 3}, {"hi", bits, 67, 5}};
  const uint32_t st = add(s);
  put(0, uint64_t{0x1ff});
  put(8, uint8_t{0x1d});                                   // lo = 5, hi = 0b11 = 3
  EXPECT_EQ(print(st), "\n" + at(0) + "(struct t) {\n" +   //
                           at(1) + ".u = (union) {\n" +    //
                           at(2) + ".c = (__u8)255,\n" +   //
                           at(2) + ".d = (__u64)511,\n" +  //
                           at(1) + "},\n" +                //
                           at(1) + ".lo = (int)-3,\n" +    // a signed 3-bit field
                           at(1) + ".hi = (int)3,\n" +     //
                           at(0) + "}\n");
}

// With printsize, "..." stands where the first member past it would be,
// before the braces of the members it interrupts are closed.
TEST_F(PrintValueTest, PrintSizeCutsAtTheFirstMemberBeyondIt) {
  const uint32_t l = add(integer("long long", 8, true));
  TypeInfo inner{.kind = TypeKind::Struct, .name = "struct", .size = 8};
  inner.members = {{"x", l, 0, 0}};
  const uint32_t in = add(inner);
  TypeInfo outer{.kind = TypeKind::Struct, .name = "struct o", .size = 24};
  outer.members = {{"a", l, 0, 0}, {"in", in, 64, 0}, {"b", l, 128, 0}};
  const uint32_t o = add(outer);
  put(0, int64_t{1});
  put(8, int64_t{2});
  put(16, int64_t{3});
  EXPECT_EQ(print(o, {}, 16), "\n" + at(0) + "(struct o) {\n" +     //
                                  at(1) + ".a = (long long)1,\n" +  //
                                  at(1) + ".in = (struct) {\n" +    //
                                  at(2) + ".x = (long long)2,\n" +  //
                                  at(1) + "...\n" +                 //
                                  at(1) + "},\n" +                  //
                                  at(0) + "}\n");
}

TEST_F(PrintValueTest, ArraysOfStructs) {
  const uint32_t i = add(integer("int", 4, true));
  TypeInfo s{.kind = TypeKind::Struct, .name = "struct p", .size = 4};
  s.members = {{"v", i, 0, 0}};
  const uint32_t sp = add(s);
  TypeInfo arr{
      .kind = TypeKind::Array, .name = "struct p [2]", .size = 8, .element = sp, .count = 2};
  const uint32_t a = add(arr);
  put(0, int32_t{1});
  put(4, int32_t{2});
  EXPECT_EQ(print(a), "\n" + at(0) + "(struct p [2]) [\n" +  //
                          at(1) + "(struct p) {\n" +         //
                          at(2) + ".v = (int)1,\n" +         //
                          at(1) + "},\n" +                   //
                          at(1) + "(struct p) {\n" +         //
                          at(2) + ".v = (int)2,\n" +         //
                          at(1) + "},\n" +                   //
                          at(0) + "]\n");
}

}  // namespace
}  // namespace dtrace::print
