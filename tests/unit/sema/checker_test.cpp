// The checker over parsed D: literal types, C's conversions, constant
// folding, built-in variables, variables made by assignment, aggregations,
// macro arguments, and every error with DTrace's tag and wording.
#include "sema/checker.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "parse/parser.h"

namespace dtrace::sema {
namespace {

class CheckerTest : public ::testing::Test {
 protected:
  // Parses and checks src. Returns "" on success, else the first
  // diagnostic as "[TAG] line N: message".
  std::string check(std::string_view src) {
    parse::ParseOptions po;
    po.isTypeName = [this](std::string_view n, bool) { return types.isTypeName(n); };
    parse::ParseResult parsed = parse::parseProgram(src, po);
    if (!parsed.diags.empty()) {
      return "parse error: " + formatDiagnostic(parsed.diags.first(), true, true);
    }
    programs.push_back(std::make_unique<ast::Program>(std::move(parsed.program)));
    Diagnostics diags;
    Checker checker(types, symbols, macros, diags);
    lastOk = checker.check(*programs.back());
    if (!diags.empty()) return formatDiagnostic(diags.first(), true, true);
    return "";
  }

  // Checks `decls BEGIN { trace(expr); }` and returns the traced expression.
  const ast::Expr* traced(const std::string& expr, const std::string& decls = "") {
    std::string err = check(decls + "\nBEGIN\n{\n\ttrace(" + expr + ");\n}\n");
    EXPECT_EQ(err, "") << expr;
    if (!err.empty()) return nullptr;
    const ast::ProbeClause* clause = nullptr;
    for (auto& item : programs.back()->items) {
      if (auto* c = std::get_if<ast::ProbeClause>(&item)) clause = c;
    }
    return clause->body.back()->expr->operands.at(0).get();
  }
  std::string typeOf(const std::string& expr, const std::string& decls = "") {
    const ast::Expr* e = traced(expr, decls);
    return e && e->type ? e->type->name : "<none>";
  }
  // The folded value, or a large sentinel when the expression is not constant.
  int64_t valueOf(const std::string& expr, const std::string& decls = "") {
    const ast::Expr* e = traced(expr, decls);
    EXPECT_TRUE(e && e->constValue) << expr << " is not constant";
    return e && e->constValue ? *e->constValue : INT64_MIN;
  }

  TypeTable types;
  SymbolTable symbols;
  MacroTable macros;
  std::vector<std::unique_ptr<ast::Program>> programs;
  bool lastOk = false;
};

// ---- integer literals ---------------------------------------------------------

TEST_F(CheckerTest, DecimalLiteralsTakeTheFirstSignedTypeThatFits) {
  EXPECT_EQ(typeOf("0"), "int");
  EXPECT_EQ(typeOf("1"), "int");
  EXPECT_EQ(typeOf("2147483647"), "int");
  EXPECT_EQ(typeOf("2147483648"), "long");
  EXPECT_EQ(typeOf("4294967295"), "long");
  EXPECT_EQ(typeOf("9223372036854775807"), "long");
}

TEST_F(CheckerTest, HexAndOctalLiteralsMayBeUnsigned) {
  EXPECT_EQ(typeOf("0x7fffffff"), "int");
  EXPECT_EQ(typeOf("0x80000000"), "unsigned int");
  EXPECT_EQ(typeOf("0xffffffff"), "unsigned int");
  EXPECT_EQ(typeOf("0x100000000"), "long");
  EXPECT_EQ(typeOf("0x7fffffffffffffff"), "long");
  // C on LP64 (and DTrace's table): unsigned long comes before unsigned long long.
  EXPECT_EQ(typeOf("0x8000000000000000"), "unsigned long");
  EXPECT_EQ(typeOf("0xffffffffffffffff"), "unsigned long");
  EXPECT_EQ(typeOf("017777777777"), "int");
  EXPECT_EQ(typeOf("020000000000"), "unsigned int");
  EXPECT_EQ(typeOf("037777777777"), "unsigned int");
}

TEST_F(CheckerTest, LiteralValuesAreKept) {
  EXPECT_EQ(valueOf("0x10"), 16);
  EXPECT_EQ(valueOf("010"), 8);
  EXPECT_EQ(valueOf("2147483648"), 2147483648LL);
  EXPECT_EQ(static_cast<uint64_t>(valueOf("0xffffffffffffffff")), ~uint64_t{0});
}

TEST_F(CheckerTest, UnsignedSuffix) {
  EXPECT_EQ(typeOf("1u"), "unsigned int");
  EXPECT_EQ(typeOf("1U"), "unsigned int");
  EXPECT_EQ(typeOf("4294967295u"), "unsigned int");
  EXPECT_EQ(typeOf("4294967296u"), "unsigned long");
  EXPECT_EQ(typeOf("0xffffffffu"), "unsigned int");
}

TEST_F(CheckerTest, LongSuffixes) {
  EXPECT_EQ(typeOf("1l"), "long");
  EXPECT_EQ(typeOf("1L"), "long");
  EXPECT_EQ(typeOf("1ul"), "unsigned long");
  EXPECT_EQ(typeOf("1ll"), "long long");
  EXPECT_EQ(typeOf("1LL"), "long long");
  EXPECT_EQ(typeOf("1ull"), "unsigned long long");
  EXPECT_EQ(typeOf("0xffffffffffffffffl"), "unsigned long");
  EXPECT_EQ(typeOf("0xffffffffffffffffll"), "unsigned long long");
}

// DTrace (dt_node_int) and C both refuse a decimal constant beyond
// LLONG_MAX without a u suffix: "integer constant 0x8000000000000000 cannot
// be represented in any built-in integral type". We type it unsigned long long.
TEST_F(CheckerTest, DecimalLiteralBeyondLongLongIsAnError) {
  EXPECT_EQ(check("BEGIN { trace(9223372036854775808); }"),
            "[D_INT_OFLOW] line 1: integer constant 0x8000000000000000 cannot be represented "
            "in any built-in integral type");
}

TEST_F(CheckerTest, CharacterConstantsAreInt) {
  EXPECT_EQ(typeOf("'a'"), "int");
  EXPECT_EQ(valueOf("sizeof ('a')"), 4);
  EXPECT_EQ(valueOf("'a'"), 97);
  EXPECT_EQ(valueOf("'\\n'"), 10);
}

TEST_F(CheckerTest, StringLiteralIsAStringSizedToFit) {
  const ast::Expr* e = traced("\"hello\"");
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(e->type->isString());
  EXPECT_EQ(e->type->name, "string");
  EXPECT_EQ(e->type->size, 6u);
}

// ---- conversions -----------------------------------------------------------------

// DTrace does not promote to int: the operand of higher rank is the type.
TEST_F(CheckerTest, CharPlusCharIsChar) { EXPECT_EQ(typeOf("c + c", "char c;"), "char"); }

TEST_F(CheckerTest, ShortTimesUnsignedCharIsShort) {
  EXPECT_EQ(typeOf("s * u", "short s; unsigned char u;"), "short");
  EXPECT_EQ(typeOf("c + u", "char c; unsigned char u;"), "unsigned char");
}

TEST_F(CheckerTest, IntPlusUnsignedIsUnsignedInt) {
  EXPECT_EQ(typeOf("i + u", "int i; unsigned int u;"), "unsigned int");
  EXPECT_EQ(typeOf("1 + 1u"), "unsigned int");
}

TEST_F(CheckerTest, LongPlusUnsignedIntIsLong) {
  EXPECT_EQ(typeOf("l + u", "long l; unsigned int u;"), "long");
}

TEST_F(CheckerTest, LongPlusUnsignedLongIsUnsignedLong) {
  EXPECT_EQ(typeOf("l + u", "long l; unsigned long u;"), "unsigned long");
}

TEST_F(CheckerTest, IntPlusLongLongIsLongLong) {
  EXPECT_EQ(typeOf("i + ll", "int i; long long ll;"), "long long");
}

TEST_F(CheckerTest, ShiftTakesTheLeftType) {
  EXPECT_EQ(typeOf("c << l", "char c; long l;"), "char");
  EXPECT_EQ(typeOf("u >> l", "unsigned int u; long l;"), "unsigned int");
}

TEST_F(CheckerTest, ComparisonsAndLogicalOperatorsAreInt) {
  EXPECT_EQ(typeOf("l < u", "long l; unsigned long u;"), "int");
  EXPECT_EQ(typeOf("l == l", "long l;"), "int");
  EXPECT_EQ(typeOf("l && l", "long l;"), "int");
  EXPECT_EQ(typeOf("!l", "long l;"), "int");
}

TEST_F(CheckerTest, UnaryMinusKeepsTheOperandType) {
  EXPECT_EQ(typeOf("-c", "char c;"), "char");
  EXPECT_EQ(typeOf("~us", "unsigned short us;"), "unsigned short");
  EXPECT_EQ(typeOf("-ui", "unsigned int ui;"), "unsigned int");
}

TEST_F(CheckerTest, TernaryConvertsItsArms) {
  EXPECT_EQ(typeOf("l ? c : u", "long l; char c; unsigned int u;"), "unsigned int");
  EXPECT_EQ(typeOf("l ? \"ab\" : \"abcd\"", "long l;")[0], 's');
}

TEST_F(CheckerTest, SizeofIsSizeT) {
  EXPECT_EQ(typeOf("sizeof (int)"), "unsigned long");
  EXPECT_EQ(valueOf("sizeof (int)"), 4);
  EXPECT_EQ(valueOf("sizeof (char)"), 1);
  EXPECT_EQ(valueOf("sizeof (uint64_t)"), 8);
  EXPECT_EQ(valueOf("sizeof (l)", "long l;"), 8);
}

// ---- constant folding -----------------------------------------------------------

TEST_F(CheckerTest, FoldsArithmetic) {
  EXPECT_EQ(valueOf("6 * 7"), 42);
  EXPECT_EQ(valueOf("1 + 2 * 3"), 7);
  EXPECT_EQ(valueOf("(1 + 2) * 3"), 9);
  EXPECT_EQ(valueOf("10 - 20"), -10);
  EXPECT_EQ(valueOf("0x0f | 0xf0"), 0xff);
  EXPECT_EQ(valueOf("0xff & 0x0f"), 0x0f);
  EXPECT_EQ(valueOf("0xff ^ 0x0f"), 0xf0);
  EXPECT_EQ(valueOf("~0"), -1);
  EXPECT_EQ(valueOf("-(5)"), -5);
  EXPECT_EQ(valueOf("!0"), 1);
  EXPECT_EQ(valueOf("!7"), 0);
}

TEST_F(CheckerTest, SignedDivisionTruncatesTowardZero) {
  EXPECT_EQ(valueOf("7 / 2"), 3);
  EXPECT_EQ(valueOf("-7 / 2"), -3);
  EXPECT_EQ(valueOf("-7 % 2"), -1);
  EXPECT_EQ(valueOf("7 % -2"), 1);
}

TEST_F(CheckerTest, UnsignedDivisionOfANegativeValue) {
  EXPECT_EQ(typeOf("-8 / 2u"), "unsigned int");
  EXPECT_EQ(valueOf("-1 % 10u"), 5);  // 4294967295 % 10
  EXPECT_EQ(valueOf("0xfffffff8 / 2"), 2147483644);
}

// Folded as the generated code computes it and illumos's dt_node_op2 folds
// it: the 64-bit values as they are, the type choosing unsigned division.
TEST_F(CheckerTest, FoldedUnsignedDivisionWorksOnTheValuesAsTheyAre) {
  EXPECT_EQ(valueOf("-8 / 2u"), 9223372036854775804LL);
  EXPECT_EQ(valueOf("-8 >> 1u"), -4);  // shift: left operand type only (int)
  EXPECT_EQ(valueOf("(-8 + 0u) >> 1"), 9223372036854775804LL);
}

TEST_F(CheckerTest, IntArithmeticKeeps64BitIntermediatesAsDifDoes) {
  EXPECT_EQ(valueOf("2147483647 + 1"), 2147483648LL);
  EXPECT_EQ(valueOf("65536 * 65536"), 4294967296LL);
  EXPECT_EQ(valueOf("100000 * 100000 / 100000"), 100000);
  EXPECT_EQ(valueOf("0u - 1"), -1);                        // every bit set, as in DIF
  EXPECT_EQ(valueOf("(int)(2147483647 + 1)"), INT32_MIN);  // a cast converts
  EXPECT_EQ(valueOf("(unsigned)(0u - 1)"), 4294967295LL);
}

TEST_F(CheckerTest, LongArithmeticWrapsAt64Bits) {
  EXPECT_EQ(valueOf("9223372036854775807 + 1"), INT64_MIN);
  EXPECT_EQ(valueOf("65536l * 65536"), 4294967296LL);
}

TEST_F(CheckerTest, Shifts) {
  EXPECT_EQ(valueOf("1 << 4"), 16);
  EXPECT_EQ(valueOf("1 << 31"), 2147483648LL);
  EXPECT_EQ(valueOf("(1 << 63) - 1"), INT64_MAX);
  EXPECT_EQ(valueOf("1l << 40"), int64_t{1} << 40);
  EXPECT_EQ(valueOf("-16 >> 2"), -4);                 // arithmetic for signed
  EXPECT_EQ(valueOf("0x80000000 >> 4"), 0x08000000);  // logical for unsigned int
}

TEST_F(CheckerTest, SignedVersusUnsignedComparison) {
  EXPECT_EQ(valueOf("-1 < 0"), 1);
  EXPECT_EQ(valueOf("-1 < 0u"), 0);  // -1 converts to UINT_MAX
  EXPECT_EQ(valueOf("-1 > 0u"), 1);
  EXPECT_EQ(valueOf("-1l < 0u"), 1);  // long holds every unsigned int: signed compare
  EXPECT_EQ(valueOf("1 <= 1"), 1);
  EXPECT_EQ(valueOf("2 >= 3"), 0);
  EXPECT_EQ(valueOf("3 == 3"), 1);
  EXPECT_EQ(valueOf("3 != 3"), 0);
}

// In C, -1 == 0xffffffffu is 1 (both are unsigned int UINT_MAX); DIF
// compares the 64-bit values, so illumos finds them different.
TEST_F(CheckerTest, EqualityComparesTheValuesAsTheyAre) {
  EXPECT_EQ(valueOf("-1 == 0xffffffffu"), 0);
  EXPECT_EQ(valueOf("-1 > 0xfffffffeu"), 1);
}

TEST_F(CheckerTest, LogicalOperators) {
  EXPECT_EQ(valueOf("1 && 2"), 1);
  EXPECT_EQ(valueOf("1 && 0"), 0);
  EXPECT_EQ(valueOf("0 || 3"), 1);
  EXPECT_EQ(valueOf("1 ^^ 1"), 0);
  EXPECT_EQ(valueOf("1 ^^ 0"), 1);
}

TEST_F(CheckerTest, TernaryFolds) {
  EXPECT_EQ(valueOf("1 ? 10 : 20"), 10);
  EXPECT_EQ(valueOf("0 ? 10 : 20"), 20);
}

TEST_F(CheckerTest, CastsTruncate) {
  EXPECT_EQ(valueOf("(char)300"), 44);
  EXPECT_EQ(valueOf("(unsigned char)-1"), 255);
  EXPECT_EQ(valueOf("(short)65535"), -1);
  EXPECT_EQ(valueOf("(unsigned short)65537"), 1);
  EXPECT_EQ(valueOf("(int)0x1ffffffff"), -1);
  EXPECT_EQ(valueOf("(unsigned int)-1"), 4294967295LL);
}

TEST_F(CheckerTest, CastsSignExtendOrZeroExtend) {
  EXPECT_EQ(valueOf("(long)(char)200"), -56);
  EXPECT_EQ(valueOf("(long)(unsigned char)200"), 200);
  EXPECT_EQ(valueOf("(long)-1"), -1);
  EXPECT_EQ(valueOf("(long)0xffffffffu"), 4294967295LL);
  EXPECT_EQ(valueOf("(unsigned long)-1"), -1);  // all 64 bits set
  EXPECT_EQ(typeOf("(uint8_t)1"), "unsigned char");
}

TEST_F(CheckerTest, CastOfAVariableIsNotConstant) {
  const ast::Expr* e = traced("(char)l", "long l;");
  ASSERT_NE(e, nullptr);
  EXPECT_FALSE(e->constValue.has_value());
  EXPECT_EQ(e->type->name, "char");
}

// DTrace refuses a constant zero divisor when the expression is parsed.
// Our checker records the diagnostic but check() still returns true, so a
// caller that trusts the result (driver::Compiler::compile does) compiles
// the script.
TEST_F(CheckerTest, DivisionByConstantZeroFailsTheCheck) {
  EXPECT_EQ(check("BEGIN { x = 1 / 0; }"),
            "[D_DIV_ZERO] line 1: expression contains division by zero");
  EXPECT_FALSE(lastOk);
}

TEST_F(CheckerTest, DivisionByConstantZeroIsReported) {
  EXPECT_EQ(check("BEGIN { x = 1 / 0; }"),
            "[D_DIV_ZERO] line 1: expression contains division by zero");
}

// DTrace checks the divisor alone: `y / 0` is D_DIV_ZERO too.
TEST_F(CheckerTest, DivisionOfAVariableByConstantZeroIsAnError) {
  EXPECT_EQ(check("BEGIN { y = 1; x = y % 0; }"),
            "[D_DIV_ZERO] line 1: expression contains division by zero");
}

// ---- built-in variables --------------------------------------------------------

TEST_F(CheckerTest, BuiltinVariableTypes) {
  EXPECT_EQ(typeOf("pid"), "int");
  EXPECT_EQ(typeOf("tid"), "int");
  EXPECT_EQ(typeOf("ppid"), "int");
  EXPECT_EQ(typeOf("uid"), "unsigned int");
  EXPECT_EQ(typeOf("gid"), "unsigned int");
  EXPECT_EQ(typeOf("timestamp"), "unsigned long long");
  EXPECT_EQ(typeOf("vtimestamp"), "unsigned long long");
  EXPECT_EQ(typeOf("walltimestamp"), "long long");
  EXPECT_EQ(typeOf("cpu"), "int");
  EXPECT_EQ(typeOf("errno"), "int");
  EXPECT_EQ(typeOf("epid"), "unsigned int");
  EXPECT_EQ(typeOf("id"), "unsigned int");
  EXPECT_EQ(typeOf("arg0"), "long long");
  EXPECT_EQ(typeOf("arg9"), "long long");
}

TEST_F(CheckerTest, StringBuiltins) {
  const ast::Expr* e = traced("execname");
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(e->type->isString());
  EXPECT_EQ(e->type->size, 16u);  // TASK_COMM_LEN
  for (const char* name : {"probeprov", "probemod", "probefunc", "probename"}) {
    const ast::Expr* p = traced(name);
    ASSERT_NE(p, nullptr);
    EXPECT_TRUE(p->type->isString()) << name;
  }
}

TEST_F(CheckerTest, BuiltinResolvesToItsVariable) {
  const ast::Expr* e = traced("arg3");
  ASSERT_NE(e, nullptr);
  ASSERT_NE(e->variable, nullptr);
  EXPECT_EQ(e->variable->kind, Variable::Kind::Builtin);
  EXPECT_EQ(e->variable->builtin, Builtin::Arg);
  EXPECT_EQ(e->variable->argIndex, 3);
  EXPECT_EQ(traced("pid")->variable->builtin, Builtin::Pid);
}

// ---- variables -------------------------------------------------------------------

TEST_F(CheckerTest, AssignmentCreatesAGlobalWithTheValueType) {
  ASSERT_EQ(check("BEGIN { x = 1; y = 2147483648; z = timestamp; s = execname; }"), "");
  ASSERT_NE(symbols.findGlobal("x"), nullptr);
  EXPECT_EQ(symbols.findGlobal("x")->type->name, "int");
  EXPECT_EQ(symbols.findGlobal("y")->type->name, "long");
  EXPECT_EQ(symbols.findGlobal("z")->type->name, "unsigned long long");
  // A string variable holds any string: full strsize.
  EXPECT_EQ(symbols.findGlobal("s")->type, types.stringType());
  EXPECT_FALSE(symbols.findGlobal("x")->declared);
}

TEST_F(CheckerTest, FirstAssignmentFixesTheType) {
  ASSERT_EQ(check("BEGIN { x = 1; x = timestamp; }"), "");
  EXPECT_EQ(symbols.findGlobal("x")->type->name, "int");
}

TEST_F(CheckerTest, DeclaredGlobalKeepsItsDeclaredType) {
  ASSERT_EQ(check("uint8_t b; BEGIN { b = 300; }"), "");
  const Variable* b = symbols.findGlobal("b");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->type->name, "unsigned char");
  EXPECT_TRUE(b->declared);
}

TEST_F(CheckerTest, DeclarationsWithKeywordCombinations) {
  ASSERT_EQ(check("unsigned long long a; short int b; unsigned c; long long int d;"), "");
  EXPECT_EQ(symbols.findGlobal("a")->type->name, "unsigned long long");
  EXPECT_EQ(symbols.findGlobal("b")->type->name, "short");
  EXPECT_EQ(symbols.findGlobal("c")->type->name, "unsigned int");
  EXPECT_EQ(symbols.findGlobal("d")->type->name, "long long");
}

TEST_F(CheckerTest, AssignmentExpressionHasTheVariableType) {
  EXPECT_EQ(typeOf("c = 1000", "char c;"), "char");
}

TEST_F(CheckerTest, VariableReadResolvesToTheGlobal) {
  const ast::Expr* e = traced("x", "BEGIN { x = 5; }");
  ASSERT_NE(e, nullptr);
  ASSERT_NE(e->variable, nullptr);
  EXPECT_EQ(e->variable, symbols.findGlobal("x"));
  EXPECT_FALSE(e->constValue.has_value());
}

TEST_F(CheckerTest, CompoundAssignmentAndIncrement) {
  EXPECT_EQ(check("BEGIN { x = 1; x += 2; x <<= 1; x++; --x; }"), "");
  EXPECT_EQ(symbols.findGlobal("x")->type->name, "int");
}

// DTrace gives a variable first seen in ++/-- the type int64_t.
TEST_F(CheckerTest, IncrementOfANewVariableMakesItInt64) {
  ASSERT_EQ(check("BEGIN { n++; }"), "");
  EXPECT_EQ(symbols.findGlobal("n")->type->name, "long long");
}

TEST_F(CheckerTest, ThisVariablesAreClauseLocal) {
  ASSERT_EQ(check("BEGIN { this->x = 5; this->s = \"abc\"; trace(this->x + 1); }"), "");
  const Variable* x = symbols.findClauseLocal("x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->kind, Variable::Kind::ClauseLocal);
  EXPECT_EQ(x->type->name, "int");
  EXPECT_EQ(symbols.findGlobal("x"), nullptr);
  EXPECT_EQ(symbols.findClauseLocal("s")->type, types.stringType());
}

TEST_F(CheckerTest, ThisVariableDeclaration) {
  ASSERT_EQ(check("this char c; BEGIN { this->c = 65; }"), "");
  EXPECT_EQ(symbols.findClauseLocal("c")->type->name, "char");
  EXPECT_TRUE(symbols.findClauseLocal("c")->declared);
}

TEST_F(CheckerTest, StringVariableComparison) {
  EXPECT_EQ(typeOf("s == \"x\"", "BEGIN { s = execname; }"), "int");
  EXPECT_EQ(typeOf("execname < \"x\""), "int");
}

// ---- aggregations ----------------------------------------------------------------

TEST_F(CheckerTest, AggregationRecordsFunctionAndKeys) {
  ASSERT_EQ(check("BEGIN { @counts[execname, pid] = count(); @ = sum(arg0); @m = max(1); }"), "");
  const Variable* counts = symbols.findAggregation("counts");
  ASSERT_NE(counts, nullptr);
  EXPECT_EQ(counts->kind, Variable::Kind::Aggregation);
  EXPECT_EQ(counts->aggFunc, ir::AggFunc::Count);
  EXPECT_EQ(counts->aggFuncName, "count");
  ASSERT_EQ(counts->keyTypes.size(), 2u);
  EXPECT_TRUE(counts->keyTypes[0]->isString());
  EXPECT_EQ(counts->keyTypes[1]->name, "int");
  EXPECT_EQ(counts->aggregationId, 0u);

  const Variable* anon = symbols.findAggregation("");
  ASSERT_NE(anon, nullptr);
  EXPECT_EQ(anon->aggFunc, ir::AggFunc::Sum);
  EXPECT_EQ(anon->type->name, "long long");
  EXPECT_EQ(anon->aggregationId, 1u);
  EXPECT_EQ(symbols.findAggregation("m")->aggFunc, ir::AggFunc::Max);
}

TEST_F(CheckerTest, EveryAggregatingFunction) {
  ir::AggFunc f;
  EXPECT_TRUE(isAggregatingFunction("count", &f));
  EXPECT_EQ(f, ir::AggFunc::Count);
  EXPECT_TRUE(isAggregatingFunction("sum", &f));
  EXPECT_EQ(f, ir::AggFunc::Sum);
  EXPECT_TRUE(isAggregatingFunction("min", &f));
  EXPECT_EQ(f, ir::AggFunc::Min);
  EXPECT_TRUE(isAggregatingFunction("max", &f));
  EXPECT_EQ(f, ir::AggFunc::Max);
  EXPECT_TRUE(isAggregatingFunction("avg", &f));
  EXPECT_EQ(f, ir::AggFunc::Avg);
  EXPECT_FALSE(isAggregatingFunction("trace"));
  EXPECT_TRUE(isActionName("printf"));
  EXPECT_FALSE(isActionName("count"));
}

TEST_F(CheckerTest, AggregationUsedAgainWithTheSameFunction) {
  EXPECT_EQ(check("BEGIN { @a[1] = count(); } END { @a[2] = count(); }"), "");
}

TEST_F(CheckerTest, AggregationKeyKeepsTheTypeOfItsFirstUse) {
  ASSERT_EQ(check("int c; BEGIN { @a[c] = count(); @a[timestamp] = count(); }"), "");
  EXPECT_EQ(symbols.findAggregation("a")->keyTypes[0]->size, 4u);
}

TEST_F(CheckerTest, AggregationRedefinedWithAnotherFunction) {
  std::string err = check("BEGIN { @a = count(); @a = sum(1); }");
  EXPECT_EQ(err.rfind("[D_AGG_REDEF] line 1: aggregation redefined: @a", 0), 0u) << err;
}

// DTrace's wording names both assignments and the line of the first.
TEST_F(CheckerTest, AggregationRedefinedMessageMatchesDTrace) {
  EXPECT_EQ(check("BEGIN\n{\n@a = count();\n@a = sum(1);\n}"),
            "[D_AGG_REDEF] line 4: aggregation redefined: @a\n\t current: @a = sum( )\n"
            "\tprevious: @a = count( ) : line 3");
}

TEST_F(CheckerTest, AggregationKeyCountMismatch) {
  EXPECT_EQ(check("BEGIN { @a[1] = count(); @a[1, 2] = count(); }"),
            "[D_PROTO_LEN] line 1: @a[ ] prototype mismatch: 2 keys passed, 1 expected");
}

TEST_F(CheckerTest, AggregationKeyTypeMismatch) {
  EXPECT_EQ(check("BEGIN { @a[1] = count(); @a[\"x\"] = count(); }"),
            "[D_PROTO_ARG] line 1: @a[ ] key #1 is incompatible with prototype:\n\tprototype: "
            "int\n\t      key: string");
}

TEST_F(CheckerTest, AggregationAssignedANonAggregatingExpression) {
  std::string err = check("BEGIN { @a = 1; }");
  EXPECT_EQ(err.rfind("[D_AGG_FUNC] line 1: ", 0), 0u) << err;
}

// dt_cook_op2: "@%s must be assigned the result of an aggregating function".
TEST_F(CheckerTest, AggregationAssignedANonAggregatingExpressionMessage) {
  EXPECT_EQ(check("BEGIN { @a = 1; }"),
            "[D_AGG_FUNC] line 1: @a must be assigned the result of an aggregating function");
}

TEST_F(CheckerTest, AggregatingFunctionInAnExpression) {
  EXPECT_EQ(check("BEGIN { x = count(); }"),
            "[D_CG_EXPR] line 1: aggregating function count( ) may not be called from a D "
            "expression (D program context required)");
}

TEST_F(CheckerTest, AggregationInAnExpression) {
  EXPECT_EQ(check("BEGIN { @a = count(); x = @a + 1; }"),
            "[D_OP_INCOMPAT] line 1: operands have incompatible types: \"aggregation\" + \"int\"");
}

TEST_F(CheckerTest, CompoundAssignmentToAnAggregation) {
  EXPECT_EQ(check("BEGIN { @a += count(); }"),
            "[D_OP_INCOMPAT] line 1: operator += may not be applied to an aggregation");
}

TEST_F(CheckerTest, AggregatingFunctionArgumentCount) {
  EXPECT_EQ(check("BEGIN { @a = count(1); }"),
            "[D_PROTO_LEN] line 1: count( ) prototype mismatch: 1 arg passed, 0 expected");
  EXPECT_EQ(check("BEGIN { @b = sum(); }"),
            "[D_PROTO_LEN] line 1: sum( ) prototype mismatch: 0 args passed, 1 expected");
  EXPECT_EQ(check("BEGIN { @c = avg(1, 2); }"),
            "[D_PROTO_LEN] line 1: avg( ) prototype mismatch: 2 args passed, 1 expected");
}

TEST_F(CheckerTest, AggregatingAString) {
  EXPECT_EQ(check("BEGIN { @a = sum(execname); }"),
            "[D_AGG_SCALAR] line 1: sum( ) argument #1 must be of scalar type");
}

// ---- macro arguments ----------------------------------------------------------

TEST_F(CheckerTest, DollarNumberIsAnInteger) {
  macros.args = {"script.d", "42", "0x10"};
  EXPECT_EQ(typeOf("$1"), "int");
  EXPECT_EQ(valueOf("$1"), 42);
  EXPECT_EQ(valueOf("$2"), 16);
  EXPECT_EQ(valueOf("$1 + 1"), 43);
}

TEST_F(CheckerTest, DollarDollarNumberIsAString) {
  macros.args = {"script.d", "42", "hello"};
  const ast::Expr* e = traced("$$2");
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(e->type->isString());
  EXPECT_EQ(e->text, "hello");
  EXPECT_TRUE(traced("$$1")->type->isString());
}

TEST_F(CheckerTest, UndefinedMacroArgument) {
  macros.args = {"script.d", "1", "2"};
  EXPECT_EQ(check("BEGIN { trace($3); }"),
            "[D_MACRO_UNDEF] line 1: macro argument $3 is not defined");
  EXPECT_EQ(check("BEGIN { trace($$3); }"),
            "[D_MACRO_UNDEF] line 1: macro argument $$3 is not defined");
}

TEST_F(CheckerTest, NamedMacroVariable) {
  macros.named["target"] = "1234";
  EXPECT_EQ(valueOf("$target"), 1234);
  EXPECT_EQ(typeOf("pid == $target"), "int");
}

// A negative $1 is `-` applied to an int (dt_lex.l: the sign becomes a
// unary operator), so $1 < 0 holds. We type "-5" as unsigned long long.
TEST_F(CheckerTest, NegativeMacroArgumentIsANegativeInt) {
  macros.args = {"script.d", "-5"};
  EXPECT_EQ(typeOf("$1"), "int");
  EXPECT_EQ(valueOf("$1"), -5);
  EXPECT_EQ(valueOf("$1 < 0"), 1);
}

// dt_lex.l: a $1 whose text is neither a number nor an identifier is a
// string token; we refuse it instead.
TEST_F(CheckerTest, NonNumericMacroArgumentIsAString) {
  macros.args = {"script.d", "hello world"};
  const ast::Expr* e = traced("$1");
  ASSERT_NE(e, nullptr);
  EXPECT_TRUE(e->type->isString());
}

// ---- errors --------------------------------------------------------------------

TEST_F(CheckerTest, UndefinedVariable) {
  EXPECT_EQ(check("BEGIN { trace(x); }"),
            "[D_IDENT_UNDEF] line 1: failed to resolve x: Unknown variable name");
}

TEST_F(CheckerTest, UndefinedVariableReportsItsLine) {
  EXPECT_EQ(check("BEGIN\n{\n\tx = 1;\n\ttrace(y);\n}\n"),
            "[D_IDENT_UNDEF] line 4: failed to resolve y: Unknown variable name");
}

TEST_F(CheckerTest, UndefinedThisVariable) {
  EXPECT_EQ(check("BEGIN { trace(this->nope); }"),
            "[D_VAR_UNDEF] line 1: this->nope has not yet been declared or assigned");
}

TEST_F(CheckerTest, UndefinedFunction) {
  EXPECT_EQ(check("BEGIN { x = nosuch(1); }"),
            "[D_FUNC_UNDEF] line 1: undefined function name: nosuch");
}

TEST_F(CheckerTest, IncompatibleAssignment) {
  EXPECT_EQ(check("BEGIN { x = 1; x = \"a\"; }"),
            "[D_OP_INCOMPAT] line 1: operands have incompatible types: \"int\" = \"string\"");
  EXPECT_EQ(check("BEGIN { s = \"a\"; s = 1; }"),
            "[D_OP_INCOMPAT] line 1: operands have incompatible types: \"string\" = \"int\"");
}

TEST_F(CheckerTest, IncompatibleComparison) {
  EXPECT_EQ(check("BEGIN { trace(1 == \"a\"); }"),
            "[D_OP_INCOMPAT] line 1: operands have incompatible types: \"int\" == \"string\"");
  EXPECT_EQ(check("BEGIN { trace(execname < 2); }"),
            "[D_OP_INCOMPAT] line 1: operands have incompatible types: \"string\" < \"int\"");
}

TEST_F(CheckerTest, ArithmeticOnAString) {
  EXPECT_EQ(check("BEGIN { trace(\"a\" * 2); }"),
            "[D_OP_ARITH] line 1: operator * requires operands of arithmetic type");
  EXPECT_EQ(check("BEGIN { trace(execname / 2); }"),
            "[D_OP_ARITH] line 1: operator / requires operands of arithmetic type");
  EXPECT_EQ(check("BEGIN { trace(-execname); }"),
            "[D_OP_ARITH] line 1: operator - requires an operand of arithmetic type");
}

TEST_F(CheckerTest, IntegralOperatorOnAString) {
  EXPECT_EQ(check("BEGIN { trace(\"a\" % 2); }"),
            "[D_OP_INT] line 1: operator % requires operands of integral type");
  EXPECT_EQ(check("BEGIN { trace(1 << execname); }"),
            "[D_OP_INT] line 1: operator << requires operands of integral type");
  EXPECT_EQ(check("BEGIN { trace(execname & 1); }"),
            "[D_OP_INT] line 1: operator & requires operands of integral type");
  EXPECT_EQ(check("BEGIN { trace(~execname); }"),
            "[D_OP_INT] line 1: operator ~ requires an operand of integral type");
}

TEST_F(CheckerTest, CompoundAssignmentOnAString) {
  EXPECT_EQ(check("BEGIN { s = \"a\"; s += 1; }"),
            "[D_OP_INCOMPAT] line 1: operands have incompatible types: \"string\" += \"int\"");
  EXPECT_EQ(check("BEGIN { s = \"a\"; s |= 1; }"),
            "[D_OP_INT] line 1: operator |= requires operands of integral type");
}

TEST_F(CheckerTest, LogicalOperatorOnAString) {
  EXPECT_EQ(check("BEGIN { trace(execname && 1); }"),
            "[D_OP_SCALAR] line 1: operator && requires operands of scalar type");
}

TEST_F(CheckerTest, WriteToABuiltin) {
  EXPECT_EQ(check("BEGIN { pid = 1; }"),
            "[D_OP_WRITE] line 1: operator = can only be applied to a writable variable");
  EXPECT_EQ(check("BEGIN { arg0 = 1; }"),
            "[D_OP_WRITE] line 1: operator = can only be applied to a writable variable");
}

// The message names the operator that was applied (dt_cook_op1, dt_assign_common).
TEST_F(CheckerTest, WriteToABuiltinNamesTheOperator) {
  EXPECT_EQ(check("BEGIN { pid++; }"),
            "[D_OP_WRITE] line 1: operator ++ can only be applied to a writable variable");
  EXPECT_EQ(check("BEGIN { timestamp += 1; }"),
            "[D_OP_WRITE] line 1: operator += can only be applied to a writable variable");
}

TEST_F(CheckerTest, AssignmentToANonLvalue) {
  std::string err = check("BEGIN { 1 = 2; }");
  EXPECT_EQ(err.rfind("[D_OP_LVAL] line 1: ", 0), 0u) << err;
}

TEST_F(CheckerTest, TraceArgumentCount) {
  EXPECT_EQ(check("BEGIN { trace(1, 2); }"),
            "[D_PROTO_LEN] line 1: trace( ) prototype mismatch: 2 args passed, 1 expected");
  EXPECT_EQ(check("BEGIN { trace(); }"),
            "[D_PROTO_LEN] line 1: trace( ) prototype mismatch: 0 args passed, 1 expected");
}

TEST_F(CheckerTest, ExitArgumentCount) {
  EXPECT_EQ(check("BEGIN { exit(); }"),
            "[D_PROTO_LEN] line 1: exit( ) prototype mismatch: 0 args passed, 1 expected");
  EXPECT_EQ(check("BEGIN { exit(1, 2); }"),
            "[D_PROTO_LEN] line 1: exit( ) prototype mismatch: 2 args passed, 1 expected");
}

TEST_F(CheckerTest, ExitWithAString) {
  EXPECT_EQ(check("BEGIN { exit(\"a\"); }"),
            "[D_PROTO_ARG] line 1: exit( ) argument #1 is incompatible with prototype:\n"
            "\tprototype: int\n\t argument: string");
}

TEST_F(CheckerTest, PrintfWithoutArguments) {
  std::string err = check("BEGIN { printf(); }");
  EXPECT_EQ(err.rfind("[D_PROTO_LEN] line 1: printf( ) prototype mismatch: 0 args passed, ", 0), 0u)
      << err;
}

TEST_F(CheckerTest, PrintfFormatMustBeAStringConstant) {
  std::string err = check("BEGIN { printf(1); }");
  EXPECT_EQ(err.rfind("[D_PROTO_ARG] line 1: printf( ) argument #1 is incompatible with "
                      "prototype:\n\tprototype: string\n\t argument: int",
                      0),
            0u)
      << err;
  err = check("BEGIN { printf(probename); }");
  EXPECT_EQ(err.rfind("[D_PRINTF_ARG_FMT] line 1: printf( ) argument #1 is incompatible with "
                      "prototype:\n\tprototype: string constant\n\t argument: string",
                      0),
            0u)
      << err;
}

TEST_F(CheckerTest, AggregationsAreNoPrintfOrPrintArguments) {
  std::string err = check("BEGIN { @a = count(); printf(\"%d\", @a); }");
  EXPECT_EQ(err.rfind("[D_PRINTF_ARG_TYPE] line 1: printf( ) argument #2 is incompatible with "
                      "conversion #1 prototype:\n\tconversion: %d\n",
                      0),
            0u)
      << err;
  EXPECT_NE(err.find("\t  argument: aggregation"), std::string::npos) << err;
  err = check("BEGIN { @a = count(); print(@a); }");
  EXPECT_EQ(err.rfind("[D_PRINT_AGG] line 1: print( ) may not be applied to an aggregation", 0), 0u)
      << err;
}

TEST_F(CheckerTest, PrintfArgumentOfTheWrongType) {
  std::string err = check("BEGIN { printf(\"%d\\n\", execname); }");
  EXPECT_EQ(err.rfind("[D_PRINTF_ARG_TYPE] line 1: printf( ) argument #2 is incompatible with "
                      "conversion #1 prototype:\n\tconversion: %d\n\t prototype: ",
                      0),
            0u)
      << err;
  EXPECT_NE(err.find("\n\t  argument: string"), std::string::npos) << err;
}

TEST_F(CheckerTest, PrintfStringConversionWithAnInteger) {
  std::string err = check("BEGIN { printf(\"%s\", 1); }");
  EXPECT_EQ(err.rfind("[D_PRINTF_ARG_TYPE] line 1: printf( ) argument #2 is incompatible with "
                      "conversion #1 prototype:\n\tconversion: %s\n",
                      0),
            0u)
      << err;
  EXPECT_NE(err.find("\n\t  argument: int"), std::string::npos) << err;
}

TEST_F(CheckerTest, PrintfMissingArgument) {
  std::string err = check("BEGIN { printf(\"%d %d\", 1); }");
  EXPECT_EQ(err,
            "[D_PRINTF_ARG_PROTO] line 1: printf( ) prototype mismatch: conversion #2 (%d) "
            "is missing a corresponding value argument");
}

TEST_F(CheckerTest, PrintfExtraArgument) {
  std::string err = check("BEGIN { printf(\"%d\", 1, 2); }");
  EXPECT_EQ(err,
            "[D_PRINTF_ARG_EXTRA] line 1: printf( ) prototype mismatch: only 1 arguments "
            "required by this format string");
}

TEST_F(CheckerTest, PrintfAcceptsMatchingArguments) {
  EXPECT_EQ(check("BEGIN { printf(\"%s %d %u %x %c\\n\", execname, pid, uid, 255, 'a'); }"), "");
}

TEST_F(CheckerTest, InvalidTypeCombination) {
  std::string err = check("long char x;");
  EXPECT_NE(err.find("[D_DECL_"), std::string::npos) << err;
  EXPECT_NE(err.find("invalid type"), std::string::npos) << err;
}

// dt_decl_spec: two base types in one declaration are
// "[D_DECL_COMBO] invalid type combination".
TEST_F(CheckerTest, TwoBaseTypesAreAnInvalidCombination) {
  EXPECT_EQ(check("char int x;"), "[D_DECL_COMBO] line 1: invalid type combination");
}

TEST_F(CheckerTest, UnknownTypedefInDeclaration) {
  std::string err = check("BEGIN { x = (no_such_t)1; }");
  EXPECT_NE(err, "");
}

TEST_F(CheckerTest, RedeclaredGlobal) {
  EXPECT_EQ(check("int x; char x;"),
            "[D_DECL_IDRED] line 1: identifier redeclared: x\n\t current: scalar char\n\tprevious: "
            "scalar int");
  EXPECT_EQ(check("int a[int]; int a[string];"),
            "[D_DECL_IDRED] line 1: identifier redeclared: a\n\t current: associative array, key "
            "#1 of type string\n\tprevious: associative array, key #1 of type int");
  EXPECT_EQ(check("static int s;"),
            "[D_DECL_BADCLASS] line 1: specified storage class not appropriate in D");
  EXPECT_EQ(check("extern extern int e;"),
            "parse error: [D_DECL_CLASS] line 1: only one storage class allowed in a declaration");
  EXPECT_EQ(check("short char c;"),
            "[D_DECL_CHARATTR] line 1: invalid type declaration: short and long may not be used "
            "with char type");
  EXPECT_EQ(check("void v[4];"), "[D_DECL_VOIDOBJ] line 1: cannot declare array of void");
  EXPECT_EQ(check("int pid;"), "[D_DECL_IDRED] line 1: built-in identifier redeclared: pid");
}

TEST_F(CheckerTest, InvalidCast) {
  EXPECT_EQ(check("BEGIN { trace((int)execname); }"),
            "[D_CAST_INVAL] line 1: invalid cast expression: \"string\" to \"int\"");
}

TEST_F(CheckerTest, ActionInAnExpression) {
  EXPECT_EQ(check("BEGIN { x = trace(1); }"),
            "[D_CG_EXPR] line 1: tracing function trace( ) may not be called from a D expression "
            "(D program context required)");
}

TEST_F(CheckerTest, IncompatibleTernaryArms) {
  EXPECT_EQ(check("BEGIN { trace(1 ? 1 : \"a\"); }"),
            "[D_OP_INCOMPAT] line 1: operator ?: operands must have compatible types");
}

// dt_cook_op3: the condition must be scalar; an aggregation arm is dynamic.
TEST_F(CheckerTest, TernaryConditionAndDynamicArms) {
  EXPECT_EQ(check("BEGIN { trace(execname ? 1 : 2); }"),
            "[D_OP_SCALAR] line 1: operator ?: expression must be of scalar type");
  EXPECT_EQ(check("BEGIN { @a = count(); trace(1 ? @a : 1); }"),
            "[D_OP_DYN] line 1: operator ?: operands cannot be of dynamic type");
}

TEST_F(CheckerTest, ErrorStopsAtTheFirstProblem) {
  Diagnostics diags;
  parse::ParseResult parsed = parse::parseProgram("BEGIN { trace(a); trace(b); }");
  ASSERT_TRUE(parsed.diags.empty());
  Checker checker(types, symbols, macros, diags);
  EXPECT_FALSE(checker.check(parsed.program));
  ASSERT_EQ(diags.all().size(), 1u);
  EXPECT_EQ(diags.first().message, "failed to resolve a: Unknown variable name");
}

}  // namespace
}  // namespace dtrace::sema
