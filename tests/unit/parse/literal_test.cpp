// Integer, character and string constants, and the lexer's refusals.
#include <gtest/gtest.h>

#include "parse/lexer.h"
#include "parse_test_util.h"

namespace dtrace::parse::testing {
namespace {

struct IntCase {
  const char* text;
  uint64_t value;
  bool isUnsigned;
  int longs;
  bool decimal;
};

TEST(ParseLiteral, IntegerBasesAndSuffixes) {
  const IntCase cases[] = {
      {"0", 0, false, 0, false},
      {"42", 42, false, 0, true},
      {"0777", 0777, false, 0, false},
      {"0x1F", 0x1f, false, 0, false},
      {"0XfF", 0xff, false, 0, false},
      {"10u", 10, true, 0, true},
      {"10U", 10, true, 0, true},
      {"10l", 10, false, 1, true},
      {"10L", 10, false, 1, true},
      {"10ll", 10, false, 2, true},
      {"10LL", 10, false, 2, true},
      {"10ul", 10, true, 1, true},
      {"10ULL", 10, true, 2, true},
      {"0x10uLL", 16, true, 2, false},
      {"18446744073709551615", UINT64_MAX, false, 0, true},
      {"0xffffffffffffffff", UINT64_MAX, false, 0, false},
  };
  for (const IntCase& c : cases) {
    auto r = parse(std::string("BEGIN { ") + c.text + "; }");
    ASSERT_TRUE(r.diags.empty()) << c.text << ": " << r.diags.first().message;
    const ast::Expr& e = firstExpr(r);
    EXPECT_EQ(e.kind, ast::ExprKind::IntLiteral) << c.text;
    EXPECT_EQ(e.intValue, c.value) << c.text;
    EXPECT_EQ(e.suffixUnsigned, c.isUnsigned) << c.text;
    EXPECT_EQ(e.suffixLongs, c.longs) << c.text;
    EXPECT_EQ(e.decimal, c.decimal) << c.text;
    EXPECT_EQ(e.text, c.text);
  }
}

TEST(ParseLiteral, IntegerErrors) {
  EXPECT_EQ(firstError("BEGIN { x = 18446744073709551616; }"),
            "[D_INT_OFLOW] line 1: constant 18446744073709551616 results in integer overflow");
  EXPECT_EQ(firstError("BEGIN { x = 0x10000000000000000; }"),
            "[D_INT_OFLOW] line 1: constant 0x10000000000000000 results in integer overflow");
  EXPECT_EQ(firstError("BEGIN { x = 089; }"),
            "[D_INT_DIGIT] line 1: constant 089 contains invalid digit 8");
}

TEST(ParseLiteral, FloatingConstantsAreRefused) {
  for (const char* f : {"1.5", "1.", ".5", "1e5", "2.5e-3", "3f"}) {
    EXPECT_EQ(firstError(std::string("BEGIN\n{ x = ") + f + "; }"),
              "[D_SYNTAX] line 2: floating-point constants are not permitted")
        << f;
  }
}

TEST(ParseLiteral, CharacterConstants) {
  struct {
    const char* text;
    uint64_t value;
  } cases[] = {
      {"'a'", 'a'},      {"'\\n'", '\n'}, {"'\\0'", 0},      {"'\\x41'", 0x41},
      {"'\\101'", 0101}, {"'\\\\'", '\\'},  {"'ab'", ('a' << 8) | 'b'},
      // D escapes neither ' nor ?: both characters stay, as in DTrace.
      {"'\\''", ('\\' << 8) | '\''}, {"'\\?'", ('\\' << 8) | '?'},
      {"'\\t'", '\t'},   {"'\"'", '"'},   {"'\\377'", 0xff},
  };
  for (const auto& c : cases) {
    auto r = parse(std::string("BEGIN { ") + c.text + "; }");
    ASSERT_TRUE(r.diags.empty()) << c.text << ": " << r.diags.first().message;
    const ast::Expr& e = firstExpr(r);
    EXPECT_EQ(e.kind, ast::ExprKind::CharLiteral) << c.text;
    EXPECT_EQ(e.intValue, c.value) << c.text;
    EXPECT_EQ(e.text, c.text);
  }
}

TEST(ParseLiteral, CharacterConstantErrors) {
  EXPECT_EQ(firstError("BEGIN { x = ''; }"), "[D_CHR_NULL] line 1: empty character constant");
  EXPECT_EQ(firstError("BEGIN { x = 'abcdefghi'; }"),
            "[D_CHR_OFLOW] line 1: character constant is too long");
  EXPECT_EQ(firstError("BEGIN {\n x = 'a\n'; }"),
            "[D_CHR_NL] line 2: newline encountered in character constant");
}

TEST(ParseLiteral, StringEscapes) {
  EXPECT_EQ(stmt(R"(x = "a\tb\nc\"d\\e")"), R"((= x "a\tb\nc\"d\\e"))");
  auto r = parse(R"(BEGIN { "\a\b\f\r\v\101\x42\7q\z"; })");
  ASSERT_TRUE(r.diags.empty());
  EXPECT_EQ(firstExpr(r).text, std::string("\a\b\f\r\vAB\7q\\z"));
  // DTrace strings are C strings: \0 ends them.
  r = parse(R"(BEGIN { "ab\0cd"; })");
  ASSERT_TRUE(r.diags.empty());
  EXPECT_EQ(firstExpr(r).text, "ab");
  EXPECT_EQ(stmt(R"(x = "")"), R"((= x ""))");
}

TEST(ParseLiteral, AdjacentStringsAreNotConcatenated) {
  EXPECT_EQ(firstError("BEGIN { x = \"a\" \"b\"; }"),
            "[D_SYNTAX] line 1: syntax error near \"\"b\"\"");
}

// A newline in a string is reported on the next line, where DTrace's
// lexer is when it finds it.
TEST(ParseLiteral, StringErrors) {
  EXPECT_EQ(firstError("BEGIN {\n x = \"abc\n\"; }"),
            "[D_STR_NL] line 3: newline encountered in string literal");
  EXPECT_EQ(firstError("BEGIN {\n x = \"abc"), "[D_SYNTAX] line 2: syntax error near \"\"\"");
}

TEST(ParseLiteral, DecodeEscapes) {
  EXPECT_EQ(decodeEscapes("\\x4a\\x4A"), "JJ");
  EXPECT_EQ(decodeEscapes("\\0101"), std::string("\0101", 2));
  EXPECT_EQ(decodeEscapes("\\q"), "\\q");
  EXPECT_EQ(decodeEscapes("plain"), "plain");
}

TEST(ParseLexer, InvalidCharacters) {
  EXPECT_EQ(firstError("BEGIN\n{\n  x = a # b;\n}"), "[D_SYNTAX] line 3: syntax error near \"#\"");
  EXPECT_EQ(firstError("BEGIN { x = a $ b; }"), "[D_SYNTAX] line 1: syntax error near \"$\"");
  EXPECT_EQ(firstError("BEGIN { x = \\; }"), "[D_SYNTAX] line 1: syntax error near \"\\\"");
}

TEST(ParseLexer, Comments) {
  EXPECT_EQ(dump("/* c */ BEGIN /* c\n */ { // line\n x = 1; /* a */ }\n// end"),
            "(clause (probes \"BEGIN\") (body (= x 1)))\n");
  EXPECT_EQ(firstError("BEGIN { /* a /* b */ }"),
            "[D_SYNTAX] line 1: /* encountered inside a comment");
  EXPECT_EQ(firstError("BEGIN { }\n/* open\n\n"),
            "[D_SYNTAX] line 4: end-of-file encountered before matching */");
}

TEST(ParseLexer, LineContinuationInClauses) {
  EXPECT_EQ(dump("BEGIN { x = a \\\n + b; }"),
            "(clause (probes \"BEGIN\") (body (= x (+ a b))))\n");
}

TEST(ParseLexer, UnbalancedBrackets) {
  EXPECT_EQ(firstError("BEGIN { x = a); }"), "[D_SYNTAX] line 1: extra ) in input stream");
  EXPECT_EQ(firstError("BEGIN { x = a]; }"), "[D_SYNTAX] line 1: extra ] in input stream");
  EXPECT_EQ(firstError("BEGIN /(a/ { }"),
            "[D_SYNTAX] line 1: closing ) expected in predicate before /");
  EXPECT_EQ(firstError("BEGIN /a[1/ { }"),
            "[D_SYNTAX] line 1: closing ] expected in predicate before /");
}

}  // namespace
}  // namespace dtrace::parse::testing
