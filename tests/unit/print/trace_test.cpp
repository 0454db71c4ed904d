#include "print/trace.h"

#include <gtest/gtest.h>

#include "print/aggregation.h"
#include "record_builder.h"

namespace dtrace::print {
namespace {

using testing::RecordBuilder;

std::string pad(size_t n) { return std::string(n, ' '); }

template <class T>
std::string trace1(T value, bool quiet) {
  RecordBuilder b;
  b.add(value);
  std::string out;
  appendTrace(out, b.fields()[0], b.data().data(), quiet);
  return out;
}

std::string traceString(const std::string& s, uint32_t size, bool quiet) {
  RecordBuilder b;
  b.addString(s, size);
  std::string out;
  appendTrace(out, b.fields()[0], b.data().data(), quiet);
  return out;
}

TEST(Heading, MatchesDTrace) {
  EXPECT_EQ(kProbeHeading, "CPU     ID                    FUNCTION:NAME\n");
}

TEST(ProbePrefix, RightAlignsFunctionAndName) {
  std::string out;
  appendProbePrefix(out, 0, 1, "", "BEGIN");
  EXPECT_EQ(out, "  0      1" + pad(27) + ":BEGIN ");
  out.clear();
  appendProbePrefix(out, 1, 412, "read", "entry");
  EXPECT_EQ(out, "  1    412" + pad(23) + "read:entry ");
  // Both columns line up under the heading.
  EXPECT_EQ(out.size(), kProbeHeading.size());
}

TEST(ProbePrefix, LongNamesAreNotTruncated) {
  std::string out;
  appendProbePrefix(out, 12, 123456, "a_very_long_kernel_function_name", "entry");
  EXPECT_EQ(out, " 12 123456 a_very_long_kernel_function_name:entry ");
}

TEST(Trace, IntegersInColumnsByFieldSize) {
  EXPECT_EQ(trace1(int64_t{42}, false), " " + pad(14) + "42");
  EXPECT_EQ(trace1(int64_t{-1}, false), " " + pad(14) + "-1");
  EXPECT_EQ(trace1(int32_t{-7}, false), " " + pad(6) + "-7");
  EXPECT_EQ(trace1(int16_t{-2}, false), "    -2");
  EXPECT_EQ(trace1(int8_t{-2}, false), "  -2");
  EXPECT_EQ(trace1(uint8_t{5}, false), "   5");
}

TEST(Trace, IntegersBySignednessOfTheirType) {
  EXPECT_EQ(trace1(uint64_t{18446744073709551615u}, false), " 18446744073709551615");
  EXPECT_EQ(trace1(uint32_t{4294967295u}, false), " 4294967295");
  EXPECT_EQ(trace1(uint16_t{65535}, false), " 65535");
  EXPECT_EQ(trace1(uint8_t{255}, false), " 255");
  EXPECT_EQ(trace1(int8_t{-1}, false), "  -1");
}

TEST(Trace, QuietIntegersHaveNoPadding) {
  EXPECT_EQ(trace1(int64_t{42}, true), "42");
  EXPECT_EQ(trace1(int64_t{-2}, true), "-2");
  EXPECT_EQ(trace1(int32_t{-2}, true), "-2");
  EXPECT_EQ(trace1(int16_t{-2}, true), "-2");
  EXPECT_EQ(trace1(int8_t{-2}, true), "-2");
  EXPECT_EQ(trace1(uint32_t{4294967295u}, true), "4294967295");
}

TEST(Trace, Strings) {
  EXPECT_EQ(traceString("hello", 32, false), "  hello" + pad(28));
  EXPECT_EQ(traceString("hello", 32, true), "hello");
  EXPECT_EQ(traceString("\n", 8, true), "\n");
  // A string longer than the column is printed whole.
  const std::string longer(40, 'x');
  EXPECT_EQ(traceString(longer, 64, false), "  " + longer);
}

TEST(Trace, StringWithoutTerminatorStillPrintsAsString) {
  EXPECT_EQ(traceString("abcdefgh", 8, false), "  abcdefgh" + pad(25));
}

TEST(Trace, BinaryDataPrintsAsHexDump) {
  RecordBuilder b;
  b.addBytes({0x01, 0x41, 0x00, 0x42, 0x00});
  std::string out;
  appendTrace(out, b.fields()[0], b.data().data(), false);
  const std::string expected =
      "\n" + pad(11) + "  0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  0123456789abcdef\n" +
      pad(5) + "    0: 01 41 00 42 00" + std::string(11 * 3, ' ') + "  .A.B.\n";
  EXPECT_EQ(out, expected);
}

TEST(Trace, StructOfAnIntegerSizeIsBytesNotAnInteger) {
  RecordBuilder b;
  b.addBytes({0x78, 0x56, 0x34, 0x12});
  std::string out;
  appendTrace(out, b.fields()[0], b.data().data(), true);
  EXPECT_NE(out.find("    0: 78 56 34 12" + std::string(12 * 3, ' ') + "  xV4.\n"),
            std::string::npos)
      << out;
}

TEST(Trace, EmptyStringPrintsAsBytesLikeDTrace) {
  std::string out = traceString("", 4, true);
  EXPECT_NE(out.find("    0: 00 00 00 00"), std::string::npos);
}

ir::Field field(uint32_t offset, uint32_t size, ir::DataKind kind) {
  ir::Field f;
  f.offset = offset;
  f.size = size;
  f.kind = kind;
  return f;
}

TEST(AggregationLine, NoKeys) {
  ir::Aggregation agg;
  const uint8_t key[8] = {};
  std::string out;
  const int64_t value[] = {10};
  appendAggregationLine(out, agg, key, value);
  EXPECT_EQ(out, pad(15) + "10\n");
}

TEST(AggregationLine, StringKey) {
  ir::Aggregation agg;
  agg.keys = {field(0, 16, ir::DataKind::String)};
  agg.keySize = 16;
  RecordBuilder b;
  b.addString("sshd", 16);
  std::string out;
  const int64_t value[] = {3};
  appendAggregationLine(out, agg, b.data().data(), value);
  EXPECT_EQ(out, "  sshd" + pad(46) + pad(16) + "3\n");
}

TEST(AggregationLine, IntegerKeysBySize) {
  ir::Aggregation agg;
  RecordBuilder b;
  b.add(uint8_t{254}).add(int16_t{-2}).add(int32_t{-2}).add(int64_t{-2});
  agg.keys = b.fields();
  std::string out;
  const int64_t value[] = {-2};
  appendAggregationLine(out, agg, b.data().data(), value);
  EXPECT_EQ(out, " 254 65534       -2" + pad(15) + "-2" + pad(15) + "-2\n");
}

TEST(AggregationLine, MixedKeys) {
  ir::Aggregation agg;
  RecordBuilder b;
  b.addString("bash", 16).add(int32_t{1234});
  agg.keys = b.fields();
  std::string out;
  const int64_t value[] = {7};
  appendAggregationLine(out, agg, b.data().data(), value);
  EXPECT_EQ(out, "  bash" + pad(46) + "     1234" + pad(16) + "7\n");
}

}  // namespace
}  // namespace dtrace::print
