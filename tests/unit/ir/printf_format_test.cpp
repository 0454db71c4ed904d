#include "ir/printf_format.h"

#include <gtest/gtest.h>

namespace dtrace::ir {
namespace {

PrintfFormat parseOk(std::string_view text) {
  auto parsed = PrintfFormat::parse(text);
  EXPECT_TRUE(std::holds_alternative<PrintfFormat>(parsed)) << text;
  return std::get<PrintfFormat>(parsed);
}

std::string parseError(std::string_view text) {
  auto parsed = PrintfFormat::parse(text);
  if (auto* e = std::get_if<PrintfError>(&parsed)) return e->message;
  ADD_FAILURE() << "parsed: " << text;
  return "";
}

PrintfArg intArg(uint32_t size = 4, bool isSigned = true, std::string name = "int") {
  return PrintfArg{PrintfArg::Class::Integer, size, isSigned, std::move(name)};
}
PrintfArg stringArg() { return PrintfArg{PrintfArg::Class::String, 256, false, "string"}; }
PrintfArg pointerArg() { return PrintfArg{PrintfArg::Class::Pointer, 8, false, "char *"}; }

std::optional<PrintfError> check(std::string_view text, std::vector<PrintfArg> args) {
  return parseOk(text).check(args, "printf");
}

TEST(PrintfFormatParse, SplitsTextAndConversions) {
  PrintfFormat f = parseOk("a=%d b=%-10s%%\n");
  ASSERT_EQ(f.pieces().size(), 4u);
  EXPECT_EQ(f.pieces()[0].prefix, "a=");
  EXPECT_EQ(f.pieces()[0].conversion->name, "d");
  EXPECT_EQ(f.pieces()[1].prefix, " b=");
  EXPECT_TRUE(f.pieces()[1].conversion->left);
  EXPECT_EQ(f.pieces()[1].conversion->width, 10);
  EXPECT_EQ(f.pieces()[2].conversion->render, PrintfRender::Percent);
  EXPECT_EQ(f.pieces()[3].prefix, "\n");
  EXPECT_FALSE(f.pieces()[3].conversion.has_value());
  EXPECT_EQ(f.fieldCount(), 2u);
}

TEST(PrintfFormatParse, PlainTextIsOnePiece) {
  PrintfFormat f = parseOk("hello\n");
  ASSERT_EQ(f.pieces().size(), 1u);
  EXPECT_EQ(f.pieces()[0].prefix, "hello\n");
  EXPECT_EQ(f.fieldCount(), 0u);
}

TEST(PrintfFormatParse, FlagsWidthPrecisionAndLength) {
  PrintfFormat f = parseOk("%#+ '08.3llx");
  const PrintfConversion& c = *f.pieces()[0].conversion;
  EXPECT_TRUE(c.alt);
  EXPECT_TRUE(c.plusSign);
  EXPECT_TRUE(c.space);
  EXPECT_TRUE(c.group);
  EXPECT_TRUE(c.zeroPad);
  EXPECT_EQ(c.width, 8);
  EXPECT_EQ(c.precision, 3);
  EXPECT_EQ(c.name, "llx");
  EXPECT_EQ(c.outFormat, "x");
}

TEST(PrintfFormatParse, ZeroAfterMinusWinsAsDTraceDoes) {
  const PrintfConversion c = *parseOk("%-05d").pieces()[0].conversion;
  EXPECT_TRUE(c.zeroPad);
  EXPECT_FALSE(c.left);
  const PrintfConversion d = *parseOk("%0-5d").pieces()[0].conversion;
  EXPECT_FALSE(d.zeroPad);
  EXPECT_TRUE(d.left);
}

TEST(PrintfFormatParse, DynamicWidthAndPrecision) {
  PrintfFormat f = parseOk("%*.*s|%?p|%@d");
  const PrintfConversion& c = *f.pieces()[0].conversion;
  EXPECT_TRUE(c.dynWidth);
  EXPECT_TRUE(c.dynPrecision);
  EXPECT_EQ(f.pieces()[1].conversion->width, 16);
  EXPECT_TRUE(f.pieces()[2].conversion->aggregation);
  EXPECT_EQ(f.fieldCount(), 4u);  // *, .*, s, p; %@d takes the aggregation
}

TEST(PrintfFormatParse, EveryConversionIsKnown) {
  for (const char* conv :
       {"a",  "A",  "c",  "C",   "d",   "e",   "E",   "f",   "g",   "G",  "hd", "hi",
        "ho", "hu", "hx", "hX",  "i",   "I",   "k",   "lc",  "ld",  "li", "lo", "lu",
        "ls", "lx", "lX", "lld", "lli", "llo", "llu", "llx", "llX", "Le", "LE", "Lf",
        "Lg", "LG", "o",  "p",   "P",   "s",   "S",   "T",   "u",   "wc", "ws", "x",
        "X",  "Y",  "%",  "hhd", "hhi", "hho", "hhu", "hhx", "hhX"}) {
    parseOk(std::string("%") + conv);
  }
}

TEST(PrintfFormatParse, Errors) {
  EXPECT_EQ(parseError("%q"), "format conversion #1 is undefined: %q");
  EXPECT_EQ(parseError("%d %hq"), "format conversion #2 is undefined: %hq");
  EXPECT_EQ(parseError("abc %"), "format conversion #1 name expected before end of format string");
  EXPECT_EQ(parseError("%5%"),
            "format conversion #1 cannot be combined with other format flags: %%");
  EXPECT_EQ(parseError("%1$d"), "format conversion #1 uses unsupported positional format (%n$)");
  EXPECT_EQ(parseError("%**d"),
            "format conversion #1 has more than one '*' specified for the output width");
  EXPECT_EQ(parseError("%1.2.3d"), "format conversion #1 has more than one '.' specified");
  auto parsed = PrintfFormat::parse("%q");
  EXPECT_EQ(std::get<PrintfError>(parsed).tag, "D_SYNTAX");
}

TEST(PrintfFormatCheck, AcceptsMatchingArguments) {
  EXPECT_FALSE(check("%d %s %p %x %c\n",
                     {intArg(), stringArg(), pointerArg(), intArg(8), intArg(1, true, "char")}));
  EXPECT_FALSE(check("%u %i %o %X",
                     {intArg(8, false, "uint64_t"), intArg(2, true, "short"), intArg(), intArg()}));
  EXPECT_FALSE(check("%*d %.*s", {intArg(), intArg(), intArg(), stringArg()}));
  EXPECT_FALSE(check("%lld %llu %hd %Y",
                     {intArg(8, true, "long long"), intArg(8, false, "unsigned long long"),
                      intArg(2, true, "short"), intArg(8, false, "uint64_t")}));
  EXPECT_FALSE(check("100%%\n", {}));
  EXPECT_FALSE(check("%hhd %hhu %hhx", {intArg(1, true, "char"), intArg(1, false, "unsigned char"),
                                        intArg(1, false, "unsigned char")}));
}

TEST(PrintfFormatCheck, ArgumentTypeMismatch) {
  auto e = check("%d\n", {stringArg()});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->tag, "D_PRINTF_ARG_TYPE");
  EXPECT_EQ(e->message,
            "printf( ) argument #2 is incompatible with conversion #1 prototype:\n"
            "\tconversion: %d\n"
            "\t prototype: char, short, int, long, or long long\n"
            "\t  argument: string");

  e = check("%s %s\n", {stringArg(), intArg()});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message,
            "printf( ) argument #3 is incompatible with conversion #2 prototype:\n"
            "\tconversion: %s\n"
            "\t prototype: char [] or string (or use stringof)\n"
            "\t  argument: int");

  e = check("%c", {intArg(8, true, "int64_t")});
  ASSERT_TRUE(e);
  EXPECT_NE(e->message.find("\t prototype: char, short, or int\n"), std::string::npos);

  e = check("%lld", {intArg()});
  ASSERT_TRUE(e);
  EXPECT_NE(e->message.find("\tconversion: %lld\n\t prototype: long long\n"), std::string::npos);

  e = check("%x", {pointerArg()});
  ASSERT_TRUE(e);
  EXPECT_NE(e->message.find("\t  argument: char *"), std::string::npos);
}

// %k takes a stack() value, %a a sym()-like one (_symaddr), %A a
// usym()-like one (_usymaddr); each refuses the others.
TEST(PrintfFormatCheck, StacksAndSymbols) {
  const PrintfArg stack{PrintfArg::Class::Other, 160, false, "stack"};
  const PrintfArg symaddr{PrintfArg::Class::Other, 8, false, "_symaddr"};
  const PrintfArg usymaddr{PrintfArg::Class::Other, 16, false, "_usymaddr"};
  EXPECT_FALSE(check("%k %a %A %a %A", {stack, symaddr, usymaddr, intArg(), pointerArg()}));
  EXPECT_TRUE(check("%a", {usymaddr}));
  EXPECT_TRUE(check("%A", {symaddr}));
  EXPECT_TRUE(check("%k", {intArg()}));
  EXPECT_TRUE(check("%d", {stack}));
}

TEST(PrintfFormatCheck, MissingArgument) {
  auto e = check("%d %d\n", {intArg()});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->tag, "D_PRINTF_ARG_PROTO");
  EXPECT_EQ(e->message,
            "printf( ) prototype mismatch: conversion #2 (%d) is missing a corresponding value "
            "argument");
}

TEST(PrintfFormatCheck, ExtraArguments) {
  auto e = check("%d\n", {intArg(), intArg(), intArg()});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->tag, "D_PRINTF_ARG_EXTRA");
  EXPECT_EQ(e->message,
            "printf( ) prototype mismatch: only 1 arguments required by this format "
            "string");
}

TEST(PrintfFormatCheck, DynamicWidthErrors) {
  auto e = check("%*d", {intArg()});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->tag, "D_PRINTF_ARG_PROTO");

  e = check("%*d", {});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->tag, "D_PRINTF_DYN_PROTO");
  EXPECT_EQ(e->message,
            "printf( ) prototype mismatch: conversion #1 (%d) is missing a "
            "corresponding \"*\" argument");

  e = check("%.*s", {stringArg(), stringArg()});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->tag, "D_PRINTF_DYN_TYPE");
  EXPECT_EQ(e->message,
            "printf( ) argument #2 is incompatible with conversion #1 prototype:\n"
            "\tconversion: % .* s\n"
            "\t prototype: int\n"
            "\t  argument: string");
}

TEST(PrintfFormatCheck, AggregationConversionOnlyInPrinta) {
  auto e = check("%@d", {});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->tag, "D_PRINTF_AGG_CONV");
  EXPECT_EQ(e->message, "%@ conversion requires an aggregation and is not for use with printf( )");
  std::vector<PrintfArg> keys = {stringArg()};
  const PrintfArg value{PrintfArg::Class::Integer, 8, true, "int64_t"};
  EXPECT_FALSE(parseOk("%s %@d\n").check(keys, "printa", value));
}

// dt_printf_validate checks %@ against the aggregating action's result: an
// int64_t, or a uint64_t for count().
TEST(PrintfFormatCheck, AggregationConversionTakesAnInteger) {
  const PrintfArg signedValue{PrintfArg::Class::Integer, 8, true, "int64_t"};
  const PrintfArg countValue{PrintfArg::Class::Integer, 8, false, "uint64_t"};
  for (const char* ok : {"%@d", "%@u", "%@x", "%@lld", "%@llx", "%@lx", "%@p", "%@10d", "%@a"}) {
    EXPECT_FALSE(parseOk(ok).check({}, "printa", signedValue)) << ok;
  }
  EXPECT_FALSE(parseOk("%@llu").check({}, "printa", countValue));
  EXPECT_TRUE(parseOk("%@llu").check({}, "printa", signedValue));
  EXPECT_TRUE(parseOk("%@lld").check({}, "printa", countValue));
  for (const char* bad : {"%@s", "%@S", "%@c", "%@C", "%@e", "%@f", "%@g", "%@k", "%@hd", "%@lc"}) {
    EXPECT_TRUE(parseOk(bad).check({}, "printa", countValue)) << bad;
  }
  auto e = parseOk("[%@s]").check({}, "printa", countValue);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->tag, "D_PRINTF_ARG_TYPE");
  EXPECT_EQ(e->message,
            "printa( ) aggregating action is incompatible with conversion #1 prototype:\n"
            "\tconversion: %s\n"
            "\t prototype: char [] or string (or use stringof)\n"
            "\t  argument: uint64_t");
}

TEST(PrintfFormatCheck, EmptyFormat) {
  auto e = check("", {});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->tag, "D_PRINTF_FMT_EMPTY");
  EXPECT_EQ(e->message, "printf( ) format string is empty");
}

TEST(PrintfFormatCheck, UsesTheFunctionName) {
  std::vector<PrintfArg> args = {stringArg()};
  auto e = parseOk("%d").check(args, "sprintf");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message.rfind("sprintf( ) argument #2", 0), 0u);
}

}  // namespace
}  // namespace dtrace::ir
