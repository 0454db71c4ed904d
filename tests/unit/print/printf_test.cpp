#include "print/printf.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>

#include "record_builder.h"

namespace dtrace::print {
namespace {

using testing::RecordBuilder;

std::string render(std::string_view format, const RecordBuilder& record) {
  auto parsed = ir::PrintfFormat::parse(format);
  EXPECT_TRUE(std::holds_alternative<ir::PrintfFormat>(parsed)) << format;
  std::string out;
  auto r = appendPrintf(out, std::get<ir::PrintfFormat>(parsed), record.fields(),
                        record.data().data(), record.data().size());
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return out;
}

template <class T>
std::string render1(std::string_view format, T value) {
  RecordBuilder b;
  b.add(value);
  return render(format, b);
}

TEST(Printf, LiteralTextAndPercent) {
  RecordBuilder none;
  EXPECT_EQ(render("hello, world\n", none), "hello, world\n");
  EXPECT_EQ(render("100%% done", none), "100% done");
}

TEST(Printf, SignedDecimal) {
  EXPECT_EQ(render1("%d", int32_t{-42}), "-42");
  EXPECT_EQ(render1("%d", int64_t{-5000000000}), "-5000000000");
  EXPECT_EQ(render1("%d", int8_t{-1}), "-1");
  EXPECT_EQ(render1("%d", int16_t{-300}), "-300");
  EXPECT_EQ(render1("%i", int32_t{7}), "7");
  EXPECT_EQ(render1("%5d|", int32_t{42}), "   42|");
  EXPECT_EQ(render1("%-5d|", int32_t{42}), "42   |");
  EXPECT_EQ(render1("%05d", int32_t{-42}), "-0042");
  EXPECT_EQ(render1("%+d", int32_t{42}), "+42");
  EXPECT_EQ(render1("% d", int32_t{42}), " 42");
  EXPECT_EQ(render1("%.4d", int32_t{42}), "0042");
  EXPECT_EQ(render1("%8.4d", int64_t{42}), "    0042");
}

TEST(Printf, DecimalFollowsTheArgumentsSignedness) {
  EXPECT_EQ(render1("%d", uint32_t{4294967295u}), "4294967295");
  EXPECT_EQ(render1("%d", uint64_t{18446744073709551615ull}), "18446744073709551615");
  EXPECT_EQ(render1("%d", uint8_t{255}), "255");
  // %i always prints signed.
  EXPECT_EQ(render1("%i", uint32_t{4294967295u}), "-1");
}

// Conversions with no flags, width or precision skip snprintf: the same
// text for every width and signedness of argument.
TEST(Printf, PlainConversionsPrintWhatSnprintfPrints) {
  const int64_t values[] = {0, 1, -1, 255, -128, INT32_MIN, INT32_MAX, INT64_MIN, INT64_MAX};
  for (int64_t v : values) {
    for (const char* conv : {"d", "i", "u", "x", "o"}) {
      const std::string format = std::string("%") + conv;
      char expected[64];
      std::snprintf(expected, sizeof expected, format.c_str(), static_cast<int32_t>(v));
      EXPECT_EQ(render1(format, static_cast<int32_t>(v)), expected) << format << " " << v;
      // %d follows the argument's signedness (see above).
      const std::string asUnsigned = format == "%d" ? "%u" : format;
      std::snprintf(expected, sizeof expected, asUnsigned.c_str(), static_cast<uint32_t>(v));
      EXPECT_EQ(render1(format, static_cast<uint32_t>(v)), expected) << format << " " << v;
      const std::string wide = std::string("%ll") + conv;
      std::snprintf(expected, sizeof expected, wide.c_str(), static_cast<long long>(v));
      EXPECT_EQ(render1(format, v), expected) << format << " " << v;
    }
  }
}

TEST(Printf, UnsignedConversionsWidenByFieldSize) {
  EXPECT_EQ(render1("%u", int32_t{-1}), "4294967295");
  EXPECT_EQ(render1("%u", int64_t{-1}), "18446744073709551615");
  EXPECT_EQ(render1("%u", int8_t{-1}), "255");  // zero-extended from its own size
}

TEST(Printf, Hexadecimal) {
  EXPECT_EQ(render1("%x", int32_t{-1}), "ffffffff");
  EXPECT_EQ(render1("%x", int64_t{-1}), "ffffffffffffffff");
  EXPECT_EQ(render1("%X", uint32_t{0xabcdef}), "ABCDEF");
  EXPECT_EQ(render1("%#x", uint32_t{255}), "0xff");
  EXPECT_EQ(render1("%08x", uint32_t{255}), "000000ff");
  EXPECT_EQ(render1("%-8x|", uint32_t{255}), "ff      |");
  EXPECT_EQ(render1("%x", uint8_t{0xab}), "ab");
  EXPECT_EQ(render1("%llx", uint64_t{0x123456789a}), "123456789a");
}

TEST(Printf, Octal) {
  EXPECT_EQ(render1("%o", uint32_t{8}), "10");
  EXPECT_EQ(render1("%#o", uint32_t{8}), "010");
}

TEST(Printf, PointerIsBareHex) {
  EXPECT_EQ(render1("%p", uint64_t{0xffffffff81000000}), "ffffffff81000000");
  EXPECT_EQ(render1("%?p|", uint64_t{0x1234}), "            1234|");
}

TEST(Printf, Character) {
  EXPECT_EQ(render1("%c", int8_t{'A'}), "A");
  EXPECT_EQ(render1("%c", int32_t{'z'}), "z");
  EXPECT_EQ(render1("%3c|", int8_t{'x'}), "  x|");
  EXPECT_EQ(render1("%-3c|", int8_t{'x'}), "x  |");
}

TEST(Printf, Strings) {
  RecordBuilder b;
  b.addString("bash", 16);
  EXPECT_EQ(render("%s", b), "bash");
  EXPECT_EQ(render("%10s|", b), "      bash|");
  EXPECT_EQ(render("%-10s|", b), "bash      |");
  EXPECT_EQ(render("%.2s|", b), "ba|");
  EXPECT_EQ(render("%-6.3s|", b), "bas   |");
}

TEST(Printf, StringFillingItsFieldHasNoTerminator) {
  RecordBuilder b;
  b.addString("abcdefgh", 8);
  EXPECT_EQ(render("[%s]", b), "[abcdefgh]");
}

TEST(Printf, EscapedString) {
  RecordBuilder b;
  b.addString("a\tb\n\x01\"", 16);
  EXPECT_EQ(render("%S", b), "a\\tb\\n\\001\\\"");
}

TEST(Printf, DynamicWidthAndPrecision) {
  RecordBuilder b;
  b.add(int32_t{8}).add(int32_t{42});
  EXPECT_EQ(render("%*d|", b), "      42|");
  RecordBuilder neg;
  neg.add(int32_t{-6}).add(int32_t{42});
  EXPECT_EQ(render("%*d|", neg), "42    |");
  RecordBuilder prec;
  prec.add(int32_t{10}).add(int32_t{3}).addString("abcdef", 16);
  EXPECT_EQ(render("%*.*s|", prec), "       abc|");
}

TEST(Printf, SeveralArguments) {
  RecordBuilder b;
  b.addString("sshd", 16).add(int32_t{1234}).add(uint64_t{0xdead});
  EXPECT_EQ(render("%s[%d] at %x\n", b), "sshd[1234] at dead\n");
}

TEST(Printf, ExplicitZeroPrecisionIsIgnoredLikeDTrace) {
  EXPECT_EQ(render1("%.0d", int32_t{0}), "0");
}

TEST(Printf, Time) {
  setenv("TZ", "UTC", 1);
  tzset();
  // 2021-01-02 03:04:05 UTC in nanoseconds.
  EXPECT_EQ(render1("%Y", uint64_t{1609556645} * 1000000000ull), "2021 Jan  2 03:04:05");
}

TEST(Printf, Rfc822Time) {
  setenv("TZ", "UTC", 1);
  tzset();
  // 2021-06-15 03:04:05 UTC. (DTrace's %T shows the ISO week's year, %G.)
  EXPECT_EQ(render1("%T", uint64_t{1623726245} * 1000000000ull), "Tue, 15 Jun 2021 03:04:05 UTC");
  EXPECT_EQ(render1("[%22Y]", uint64_t{1609556645} * 1000000000ull), "[  2021 Jan  2 03:04:05]");
}

TEST(Printf, SizePrefixesPrintTheArgumentsValue) {
  EXPECT_EQ(render1("%hd", int16_t{-2}), "-2");
  EXPECT_EQ(render1("%hx", int16_t{-2}), "fffe");  // the field's 16 bits
  EXPECT_EQ(render1("%ld", int64_t{-3}), "-3");
  EXPECT_EQ(render1("%llx", int64_t{-4}), "fffffffffffffffc");
  EXPECT_EQ(render1("%hhd", int8_t{-1}), "-1");
  EXPECT_EQ(render1("%hhx", int8_t{-1}), "ff");
  EXPECT_EQ(render1("%hhu", int8_t{-1}), "255");
  EXPECT_EQ(render1("%lc", int32_t{'A'}), "A");
}

TEST(Printf, FloatingPoint) {
  RecordBuilder b;
  b.add(1.5).add(1.5).add(1.5).add(2.25f).add(2.25f);
  EXPECT_EQ(render("%f|%.2e|%G|%8.3f|%E", b), "1.500000|1.50e+00|1.5|   2.250|2.250000E+00");
}

TEST(Printf, EscapedCharacter) { EXPECT_EQ(render1("[%3C]", int8_t{'\n'}), "[ \\n]"); }

TEST(Printf, SymbolFallsBackToHexAddress) {
  // No kernel function lies this low; tests/d covers named addresses.
  EXPECT_EQ(render1("%a", uint64_t{0x1000}), "0x1000");
}

TEST(Printf, RecordTooShortIsAnError) {
  auto parsed = ir::PrintfFormat::parse("%d %d");
  RecordBuilder b;
  b.add(int32_t{1});
  std::string out;
  auto r = appendPrintf(out, std::get<ir::PrintfFormat>(parsed), b.fields(), b.data().data(),
                        b.data().size());
  EXPECT_FALSE(r.ok());
}

TEST(ReadIntegers, WidenBySizeAndSign) {
  const uint8_t bytes[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  EXPECT_EQ(readSigned(bytes, 1), -1);
  EXPECT_EQ(readSigned(bytes, 2), -1);
  EXPECT_EQ(readSigned(bytes, 4), -1);
  EXPECT_EQ(readSigned(bytes, 8), -1);
  EXPECT_EQ(readUnsigned(bytes, 1), 0xffu);
  EXPECT_EQ(readUnsigned(bytes, 2), 0xffffu);
  EXPECT_EQ(readUnsigned(bytes, 4), 0xffffffffu);
  EXPECT_EQ(readUnsigned(bytes, 8), 0xffffffffffffffffull);
}

}  // namespace
}  // namespace dtrace::print
