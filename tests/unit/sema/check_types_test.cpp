// Types a D program declares: struct and union layout as C lays them out,
// bit-fields, enumerators, offsetof, pointers and their arithmetic, inline
// names and translators.
#include "fresh_check.h"

namespace dtrace::sema {
namespace {

using CheckTypesTest = FreshCheck;

// As illumos' CTF lays a D struct out: members aligned, no padding after
// the last one.
TEST_F(CheckTypesTest, StructMembersAreAlignedAndTheStructEndsWithTheLast) {
  const std::string s = "struct s { char c; int i; char d; long l; short h; };";
  EXPECT_EQ(constant(s, "sizeof (struct s)"), 26);
  EXPECT_EQ(constant(s, "offsetof(struct s, i)"), 4);
  EXPECT_EQ(constant(s, "offsetof(struct s, d)"), 8);
  EXPECT_EQ(constant(s, "offsetof(struct s, l)"), 16);
  EXPECT_EQ(constant(s, "offsetof(struct s, h)"), 24);
}

TEST_F(CheckTypesTest, UnionsAreAsLargeAsTheirLargestMember) {
  EXPECT_EQ(constant("union u { char c[5]; int i; };", "sizeof (union u)"), 5);
}

// A bit-field is an integer of its width in the smallest unit holding it,
// starting at the next byte: a:3 takes byte 0, b:30 the 4 bytes from 4.
TEST_F(CheckTypesTest, BitFieldsTakeTheSmallestUnitFromTheNextByte) {
  const std::string s = "struct b { unsigned a : 3; unsigned b : 30; char c; };";
  EXPECT_EQ(constant(s, "sizeof (struct b)"), 9);
  EXPECT_EQ(constant(s, "offsetof(struct b, c)"), 8);
  EXPECT_EQ(constant("struct b { int a : 1; int b : 3; int c : 3; };", "sizeof (struct b)"), 3);
  EXPECT_EQ(constant("struct b { int a : 12; int b : 10; int c : 3; };", "sizeof (struct b)"), 5);
  EXPECT_EQ(constant("struct b { char a : 2; short b : 12; long c : 32; };", "sizeof (struct b)"),
            8);
  EXPECT_EQ(constant("struct b { int a; int : 0; char c; };", "offsetof(struct b, c)"), 4);
  EXPECT_EQ(check("struct b { float : 1; };"),
            "[D_DECL_BFTYPE] line 1: invalid type for bit-field: (anon)");
  EXPECT_EQ(check("struct b { int a : 33; };"),
            "[D_DECL_BFSIZE] line 1: bit-field too big for type: a");
  EXPECT_EQ(check("struct b { int a : 0; };"),
            "[D_DECL_BFCONST] line 1: positive integral constant expression expected as "
            "bit-field size");
  EXPECT_EQ(check("struct b { string s : 3; };"),
            "[D_DECL_BFTYPE] line 1: invalid type for bit-field: s");
}

TEST_F(CheckTypesTest, EnumeratorsCountOnFromTheLastValue) {
  const std::string e = "enum e { A, B = 10, C, D = -5, E };";
  EXPECT_EQ(constant(e, "A"), 0);
  EXPECT_EQ(constant(e, "C"), 11);
  EXPECT_EQ(constant(e, "E"), -4);
  EXPECT_EQ(typeOf(e, "C"), "enum e");
}

TEST_F(CheckTypesTest, PointerArithmeticKeepsThePointerType) {
  EXPECT_EQ(typeOf("int *p;", "p + 1"), "int *");
  EXPECT_EQ(typeOf("int *p;", "p - p"), "long");
  EXPECT_EQ(typeOf("int *p;", "*p"), "int");
  EXPECT_EQ(typeOf("int *p;", "p[3]"), "int");
  EXPECT_EQ(typeOf("struct s { int a; }; struct s *p;", "&p->a"), "int *");
}

TEST_F(CheckTypesTest, PointerErrorsUseDTraceTags) {
  EXPECT_EQ(check("BEGIN { x = 1; trace(*x); }"),
            "[D_DEREF_NONPTR] line 1: cannot dereference non-pointer type");
  EXPECT_EQ(check("void *p; BEGIN { trace(*p); }"),
            "[D_DEREF_VOID] line 1: cannot dereference pointer to void");
  EXPECT_EQ(check("BEGIN { x = 1; trace(&x); }"),
            "[D_ADDROF_VAR] line 1: cannot take address of dynamic variable");
  EXPECT_EQ(check("struct s { int a; }; struct s v; BEGIN { trace(v.b); }"),
            "[D_TYPE_MEMBER] line 1: b is not a member of struct s");
}

TEST_F(CheckTypesTest, InlinesAreConstantsOfTheirType) {
  EXPECT_EQ(constant("inline uint8_t X = 257;", "X"), 1);
  EXPECT_EQ(constant("inline int Y = 6 * 7;", "Y + 1"), 43);
}

TEST_F(CheckTypesTest, TranslatedMembersTakeTheMemberType) {
  const std::string t =
      "struct out { int doubled; }; translator struct out < int N > { doubled = N * 2; };";
  EXPECT_EQ(typeOf(t, "xlate <struct out> (3).doubled"), "int");
  EXPECT_EQ(check(t + " BEGIN { trace(xlate <struct out> (\"s\").doubled); }"),
            "[D_XLATE_NONE] line 1: cannot translate from \"string\" to \"struct out\"");
}

TEST_F(CheckTypesTest, WholeTranslatedStructsNameTheirXlate) {
  const std::string t =
      "struct out { int doubled; }; translator struct out < int N > { doubled = N * 2; };"
      "inline struct out *p = xlate <struct out *> (3);";
  EXPECT_EQ(typeOf(t, "*p"), "struct out");
  const ast::Expr* whole = traced();
  ASSERT_TRUE(whole && whole->translation);
  EXPECT_EQ(whole->translation->kind, ast::ExprKind::Xlate);
  EXPECT_FALSE(whole->inMemory);  // built from the translator, never read from memory
  EXPECT_EQ(typeOf(t, "(*p).doubled"), "int");
  EXPECT_EQ(check(t + " BEGIN { trace((*p)->doubled); }"),
            "[D_OP_PTR] line 1: operator -> cannot be applied to \"struct out\"");
}

TEST_F(CheckTypesTest, CharArraysAndPointersCompareWithStrings) {
  const std::string d = "struct s { char name[8]; }; struct s x; char *p;";
  EXPECT_EQ(typeOf(d, "x.name == \"a\""), "int");
  EXPECT_EQ(typeOf(d, "\"a\" < p"), "int");
  EXPECT_EQ(typeOf(d, "1 ? x.name : \"b\""), "string");
  // Neither is a string: an array and a pointer compare as addresses.
  EXPECT_EQ(typeOf(d, "x.name == p"), "int");
  EXPECT_EQ(check(d + " BEGIN { x.name = \"a\"; }"),
            "[D_OP_ARRFUN] line 1: operator = may not be applied to operand of type \"char [8]\"");
}

}  // namespace
}  // namespace dtrace::sema
