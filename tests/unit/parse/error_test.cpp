// Syntax errors: DTrace's wording, tags and line numbers, first error only.
#include <gtest/gtest.h>

#include "parse_test_util.h"

namespace dtrace::parse::testing {
namespace {

TEST(ParseErrors, SyntaxErrorNearToken) {
  EXPECT_EQ(firstError("BEGIN\n{\n x = ;\n}"), "[D_SYNTAX] line 3: syntax error near \";\"");
  EXPECT_EQ(firstError("BEGIN { x = 1 + ; }"), "[D_SYNTAX] line 1: syntax error near \";\"");
  EXPECT_EQ(firstError("BEGIN\n{\n\n  trace(1 2);\n}"),
            "[D_SYNTAX] line 4: syntax error near \"2\"");
  EXPECT_EQ(firstError("BEGIN { x = a b; }"), "[D_SYNTAX] line 1: syntax error near \"b\"");
  EXPECT_EQ(firstError("BEGIN { x == ; }"), "[D_SYNTAX] line 1: syntax error near \";\"");
  EXPECT_EQ(firstError("BEGIN { x = \"s\" \"t\"; }"),
            "[D_SYNTAX] line 1: syntax error near \"\"t\"\"");
  EXPECT_EQ(firstError("BEGIN { while (1) { } }"),
            "[D_SYNTAX] line 1: syntax error near \"while\"");
  EXPECT_EQ(firstError("BEGIN { x = a[]; }"), "[D_SYNTAX] line 1: syntax error near \"]\"");
  EXPECT_EQ(firstError("BEGIN { x = @a + ; }"), "[D_SYNTAX] line 1: syntax error near \";\"");
}

TEST(ParseErrors, EndOfInput) {
  EXPECT_EQ(firstError("BEGIN {"), "[D_SYNTAX] line 1: syntax error near end of input");
  EXPECT_EQ(firstError("BEGIN {\n x = 1;\n"), "[D_SYNTAX] line 3: syntax error near end of input");
  EXPECT_EQ(firstError("BEGIN { x = "), "[D_SYNTAX] line 1: syntax error near end of input");
  EXPECT_EQ(firstError("BEGIN /x"), "[D_SYNTAX] line 1: syntax error near end of input");
  EXPECT_EQ(firstError("BEGIN,"), "[D_SYNTAX] line 1: syntax error near end of input");
}

TEST(ParseErrors, OuterScope) {
  EXPECT_EQ(firstError("BEGIN { } }"), "[D_SYNTAX] line 1: syntax error near \"}\"");
  EXPECT_EQ(firstError("{ x = 1; }"), "[D_SYNTAX] line 1: syntax error near \"{\"");
  EXPECT_EQ(firstError("BEGIN { };"), "[D_SYNTAX] line 1: syntax error near \";\"");
  EXPECT_EQ(firstError("\n\"BEGIN\" { }"), "[D_SYNTAX] line 2: syntax error near \"\"\"");
  EXPECT_EQ(firstError("BEGIN, { }"), "[D_SYNTAX] line 1: syntax error near \"{\"");
}

TEST(ParseErrors, CallNeedsAFunctionName) {
  // dt_node_func(): a parenthesized name is still a name.
  EXPECT_EQ(firstError("BEGIN { (f)(1); }"), "");
  EXPECT_EQ(firstError("BEGIN { a.b(1); }"),
            "[D_FUNC_IDENT] line 1: function designator is not of function type");
}

TEST(ParseErrors, OnlyTheFirstErrorIsReported) {
  ParseResult r = parse("BEGIN { x = ; }\nEND { y = ; }");
  ASSERT_EQ(r.diags.all().size(), 1u);
  EXPECT_EQ(r.diags.first().loc.line, 1u);
  EXPECT_EQ(r.diags.first().tag, "D_SYNTAX");
}

TEST(ParseErrors, ColumnsPointAtTheToken) {
  ParseResult r = parse("BEGIN\n{\n   x = ;\n}");
  ASSERT_FALSE(r.diags.empty());
  EXPECT_EQ(r.diags.first().loc.line, 3u);
  EXPECT_EQ(r.diags.first().loc.column, 8u);
}

TEST(ParseErrors, FormattingWithoutTagAndLine) {
  ParseResult r = parse("BEGIN { x = ; }");
  ASSERT_FALSE(r.diags.empty());
  EXPECT_EQ(formatDiagnostic(r.diags.first(), false, false), "syntax error near \";\"");
}

}  // namespace
}  // namespace dtrace::parse::testing
