// illumos's type rules the checker follows: pointer compatibility
// (dt_node_is_ptrcompat, dt_node_is_argcompat), constant 0 as a null
// pointer and as the empty string, bit-field promotion, sizeof, declarations,
// translators and casts to string.
#include "fresh_check.h"

namespace dtrace::sema {
namespace {

using CheckCompatTest = FreshCheck;

const char* const kPointers = "int *p; int *q; char *c; void *v; int i; int a[4];";

TEST_F(CheckCompatTest, CompoundAssignmentMovesAPointerByObjects) {
  EXPECT_EQ(check(std::string(kPointers) + " BEGIN { p += 2; p -= i; }"), "");
  // The count is scaled as p = p + n would be, in 64 bits.
  const ast::Expr* e = last();
  ASSERT_EQ(e->kind, ast::ExprKind::Assign);
  EXPECT_EQ(e->type->name, "int *");
  EXPECT_EQ(e->operands[1]->type->size, 8u);
  EXPECT_EQ(check(std::string(kPointers) + " BEGIN { p += 2; }"), "");
  EXPECT_EQ(*last()->operands[1]->constValue, 8);
  EXPECT_EQ(check(std::string(kPointers) + " BEGIN { v += 1; }"),
            "[D_OP_VFPTR] line 1: operator += requires left-hand scalar operand of known size");
  EXPECT_EQ(check(std::string(kPointers) + " BEGIN { i += p; }"),
            "[D_OP_VFPTR] line 1: operator += requires left-hand scalar operand of known size");
}

TEST_F(CheckCompatTest, VoidPointersHaveNoArithmetic) {
  EXPECT_EQ(check(std::string(kPointers) + " BEGIN { trace(v + 1); }"),
            "[D_OP_INCOMPAT] line 1: operands have incompatible types: \"void *\" + \"int\"");
  EXPECT_EQ(check(std::string(kPointers) + " BEGIN { v++; }"),
            "[D_OP_VFPTR] line 1: operator ++ requires an operand of known size");
  EXPECT_EQ(check(std::string(kPointers) + " BEGIN { trace(p - c); }"),
            "[D_OP_INCOMPAT] line 1: operands have incompatible types: \"int *\" - \"char *\"");
  EXPECT_EQ(typeOf(kPointers, "p - q"), "long");
}

TEST_F(CheckCompatTest, IntegersAndPointersDoNotMix) {
  EXPECT_EQ(check(std::string(kPointers) + " BEGIN { p = i; }"),
            "[D_OP_INCOMPAT] line 1: operands have incompatible types: \"int *\" = \"int\"");
  EXPECT_EQ(check(std::string(kPointers) + " BEGIN { p = 1; }"),
            "[D_OP_INCOMPAT] line 1: operands have incompatible types: \"int *\" = \"int\"");
  EXPECT_EQ(check(std::string(kPointers) + " BEGIN { i = p; }"),
            "[D_OP_INCOMPAT] line 1: operands have incompatible types: \"int\" = \"int *\"");
  EXPECT_EQ(check(std::string(kPointers) + " BEGIN { p = c; }"),
            "[D_OP_INCOMPAT] line 1: operands have incompatible types: \"int *\" = \"char *\"");
  EXPECT_EQ(check(std::string(kPointers) + " BEGIN { trace(p == 1); }"),
            "[D_OP_INCOMPAT] line 1: operands have incompatible types: \"int *\" == \"int\"");
  EXPECT_EQ(check(std::string(kPointers) + " BEGIN { trace(p == c); }"),
            "[D_OP_INCOMPAT] line 1: operands have incompatible types: \"int *\" == \"char *\"");
  // Constant 0 is a null pointer; void * goes with any pointer.
  EXPECT_EQ(check(std::string(kPointers) + " BEGIN { p = 0; p = v; v = c; }"), "");
  EXPECT_EQ(typeOf(kPointers, "p == 0"), "int");
  EXPECT_EQ(typeOf(kPointers, "p != v"), "int");
  EXPECT_EQ(typeOf(kPointers, "p == a"), "int");
}

TEST_F(CheckCompatTest, ConditionalTakesThePointerType) {
  EXPECT_EQ(typeOf(kPointers, "i ? p : 0"), "int *");
  EXPECT_EQ(typeOf(kPointers, "i ? v : p"), "int *");
  EXPECT_EQ(typeOf(kPointers, "i ? a : p"), "int *");
  EXPECT_EQ(check(std::string(kPointers) + " BEGIN { trace(i ? p : c); }"),
            "[D_OP_INCOMPAT] line 1: operator ?: operands must have compatible types");
}

TEST_F(CheckCompatTest, ArraysCastToPointers) {
  EXPECT_EQ(typeOf(kPointers, "(char *)a"), "char *");
  EXPECT_EQ(check(std::string(kPointers) + " BEGIN { trace((int)a); }"),
            "[D_CAST_INVAL] line 1: invalid cast expression: \"int [4]\" to \"int\"");
}

TEST_F(CheckCompatTest, ArraysPassAsVoidPointers) {
  EXPECT_EQ(check(std::string(kPointers) + " BEGIN { bcopy(a, v, 4); }"), "");
  const ast::Expr* call = last();
  EXPECT_EQ(call->operands[0]->kind, ast::ExprKind::Cast);
  EXPECT_EQ(call->operands[0]->type->name, "void *");
}

TEST_F(CheckCompatTest, StringsTakeZeroAsNull) {
  const std::string d = "string s; inline void *N = 0;";
  const std::pair<const char*, size_t> zeros[] = {{"s == 0", 1}, {"0 != s", 0}, {"s == N", 1}};
  for (const auto& [e, at] : zeros) {
    const ast::Expr* cmp = traced(d, e);
    ASSERT_TRUE(cmp);
    EXPECT_EQ(cmp->type->name, "int") << e;
    EXPECT_EQ(cmp->operands[at]->kind, ast::ExprKind::StringLiteral) << e;
    EXPECT_EQ(cmp->operands[at]->text, "") << e;
  }
  // Assigned to a global or clause-local string, 0 stays DTrace's NULL
  // string, as it does for a dynamic one, where it frees the element; to a
  // member of a struct it is "".
  EXPECT_EQ(check("string g; BEGIN { g = 0; }"), "");
  EXPECT_EQ(last()->operands[1]->kind, ast::ExprKind::IntLiteral);
  EXPECT_EQ(check("this string l; BEGIN { this->l = 0; }"), "");
  EXPECT_EQ(last()->operands[1]->kind, ast::ExprKind::IntLiteral);
  EXPECT_EQ(check("struct sv { string m; } v; BEGIN { v.m = 0; }"), "");
  EXPECT_EQ(last()->operands[1]->kind, ast::ExprKind::StringLiteral);
  EXPECT_EQ(check("BEGIN { self->s = \"a\"; self->s = 0; a[\"k\"] = \"v\"; a[\"k\"] = 0; }"), "");
  EXPECT_EQ(last()->operands[1]->kind, ast::ExprKind::IntLiteral);
  EXPECT_EQ(check("string s; BEGIN { s = 1; }"),
            "[D_OP_INCOMPAT] line 1: operands have incompatible types: \"string\" = \"int\"");
}

TEST_F(CheckCompatTest, NarrowUnsignedBitFieldsPromoteToInt) {
  const std::string d = "struct bf { unsigned a:3; unsigned long w:40; } g;";
  EXPECT_EQ(typeOf(d, "g.a - 8"), "int");
  EXPECT_EQ(typeOf(d, "g.a < 0"), "int");
  EXPECT_EQ(typeOf(d, "-g.a"), "int");
  EXPECT_EQ(typeOf(d, "g.w + 1"), "unsigned long");
  EXPECT_EQ(typeOf(d, "g.a"), "unsigned int");
}

TEST_F(CheckCompatTest, SizeofNeedsAKnownSize) {
  EXPECT_EQ(check("BEGIN { trace(sizeof (struct nosuch)); }"),
            "[D_SIZEOF_TYPE] line 1: cannot apply sizeof to an operand of unknown size");
  EXPECT_EQ(check("BEGIN { trace(sizeof (enum nosuch)); }"),
            "[D_SIZEOF_TYPE] line 1: cannot apply sizeof to an operand of unknown size");
  EXPECT_EQ(check("BEGIN { trace(sizeof (void)); }"),
            "[D_SIZEOF_TYPE] line 1: cannot apply sizeof to an operand of unknown size");
  EXPECT_EQ(check("struct bf { unsigned a:3; } g; BEGIN { trace(sizeof (g.a)); }"),
            "[D_SIZEOF_BITFIELD] line 1: cannot apply sizeof to a bit-field");
  EXPECT_EQ(constant("", "sizeof ('A')"), 4);
}

TEST_F(CheckCompatTest, FloatingTypesHaveSizesButNoArithmetic) {
  EXPECT_EQ(constant("", "sizeof (float) + sizeof (double) * 10 + sizeof (long double) * 100"),
            1684);
  EXPECT_EQ(typeOf("", "(double *)0"), "double *");
  EXPECT_EQ(check("float f; BEGIN { trace(f + 1); }"),
            "[D_OP_ARITH] line 1: operator + requires operands of arithmetic type");
}

TEST_F(CheckCompatTest, SolarisTypedefs) {
  EXPECT_EQ(constant("",
                     "sizeof (psetid_t) + sizeof (zoneid_t) + sizeof (taskid_t) + "
                     "sizeof (projid_t) + sizeof (major_t) + sizeof (minor_t) + "
                     "sizeof (ipaddr_t)"),
            28);
}

TEST_F(CheckCompatTest, DeclarationsNeedObjectTypes) {
  EXPECT_EQ(check("void x;"), "[D_DECL_VOIDOBJ] line 1: cannot have void object: x");
  EXPECT_EQ(check("struct nosuch v;"),
            "[D_DECL_INCOMPLETE] line 1: incomplete struct/union/enum struct nosuch: v");
  EXPECT_EQ(check("typedef int foo; typedef long foo;"),
            "[D_DECL_IDRED] line 1: typedef redeclared: foo");
  EXPECT_EQ(check("typedef int foo; typedef int foo;"), "");
  EXPECT_EQ(check("enum e { A = 2147483648 };"),
            "[D_DECL_ENOFLOW] line 1: enumerator 'A' value overflows INT_MAX (2147483647)");
  EXPECT_EQ(check("enum e { A = 2147483647, B };"),
            "[D_DECL_ENOFLOW] line 1: enumerator 'B' value overflows INT_MAX (2147483647)");
}

TEST_F(CheckCompatTest, TranslatorMessagesAreIllumos) {
  const std::string t = "struct o { int a; int b; }; translator struct o < int x > { a = x; };";
  EXPECT_EQ(check(t + " BEGIN { trace(xlate <struct o> (1).b); }"),
            "[D_XLATE_NOCONV] line 1: translator does not define conversion for member: b");
  EXPECT_EQ(check(t + " BEGIN { trace(xlate <struct o> (\"s\").a); }"),
            "[D_XLATE_NONE] line 1: cannot translate from \"string\" to \"struct o\"");
}

TEST_F(CheckCompatTest, TranslatedPointersAreNoValues) {
  const std::string t =
      "struct o { int a; }; translator struct o < int x > { a = x; };"
      "inline struct o *P = xlate <struct o *> (1);";
  EXPECT_EQ(check(t + "\nBEGIN { trace(P); }"),
            "[D_TRACE_DYN] line 2: trace( ) may not be applied to a translated pointer");
  EXPECT_EQ(check(t + "\nBEGIN { x = P; }"),
            "[D_OP_DYN] line 2: translated pointer P may only be dereferenced or used with ->");
  EXPECT_EQ(check(t + "\nBEGIN { printf(\"%p\", P); }"),
            "[D_OP_DYN] line 2: translated pointer P may only be dereferenced or used with ->");
  EXPECT_EQ(check(t + "\nBEGIN { trace(P->a + (*P).a); }"), "");
}

TEST_F(CheckCompatTest, CastsToStringReadTheString) {
  const ast::Expr* e = traced("char *c; char a[8]; long l;", "(string)l");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->kind, ast::ExprKind::Stringof);
  EXPECT_EQ(e->type->name, "string");
  EXPECT_EQ(typeOf("char *c;", "(string)c"), "string");
}

}  // namespace
}  // namespace dtrace::sema
