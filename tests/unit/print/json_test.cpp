#include "print/json.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

namespace dtrace::print {
namespace {

std::string jsonOf(std::string_view bytes) {
  std::string out;
  appendJsonString(out, bytes);
  return out;
}

TEST(JsonString, PlainTextIsQuoted) {
  EXPECT_EQ(jsonOf(""), R"("")");
  EXPECT_EQ(jsonOf("syscall::read:entry"), R"("syscall::read:entry")");
}

TEST(JsonString, QuoteAndBackslashAreEscaped) {
  EXPECT_EQ(jsonOf(R"(say "hi" \ bye)"), R"("say \"hi\" \\ bye")");
  EXPECT_EQ(jsonOf("/"), R"("/")");  // a solidus needs no escape
}

TEST(JsonString, EveryControlCharacterIsEscaped) {
  EXPECT_EQ(jsonOf("\b\f\n\r\t"), R"("\b\f\n\r\t")");
  EXPECT_EQ(jsonOf(std::string_view("\0", 1)), R"("\u0000")");
  EXPECT_EQ(jsonOf("\x01\x1f\x7f"), R"("\u0001\u001f\u007f")");
  for (int c = 0; c < 0x20; c++) {
    const std::string out = jsonOf(std::string(1, static_cast<char>(c)));
    EXPECT_EQ(out[1], '\\') << "control character " << c;
  }
  // C1 controls, U+0080..U+009F, are two bytes in UTF-8.
  EXPECT_EQ(jsonOf("\xC2\x80\xC2\x9F"), R"("\u0080\u009f")");
}

TEST(JsonString, LineAndParagraphSeparatorsAreEscaped) {
  EXPECT_EQ(jsonOf("a\xE2\x80\xA8z\xE2\x80\xA9"), R"("a\u2028z\u2029")");
  EXPECT_EQ(jsonOf("\xE2\x80\xA7"), "\"\xE2\x80\xA7\"");  // U+2027 is not
}

TEST(JsonString, WellFormedUtf8IsKept) {
  EXPECT_EQ(jsonOf("caf\xC3\xA9"), "\"caf\xC3\xA9\"");            // é
  EXPECT_EQ(jsonOf("\xC2\xA0"), "\"\xC2\xA0\"");                  // U+00A0
  EXPECT_EQ(jsonOf("\xE2\x82\xAC"), "\"\xE2\x82\xAC\"");          // €
  EXPECT_EQ(jsonOf("\xED\x9F\xBF"), "\"\xED\x9F\xBF\"");          // U+D7FF
  EXPECT_EQ(jsonOf("\xF0\x9F\x94\xA5"), "\"\xF0\x9F\x94\xA5\"");  // U+1F525
  EXPECT_EQ(jsonOf("\xF4\x8F\xBF\xBF"), "\"\xF4\x8F\xBF\xBF\"");  // U+10FFFF
}

TEST(JsonString, EachInvalidByteBecomesTheReplacementCharacter) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(jsonOf("\x80"), "\"" + r + "\"");                          // stray continuation
  EXPECT_EQ(jsonOf("a\xFFz"), "\"a" + r + "z\"");                      // never in UTF-8
  EXPECT_EQ(jsonOf("\xC0\xAF"), "\"" + r + r + "\"");                  // overlong '/'
  EXPECT_EQ(jsonOf("\xE0\x80\xAF"), "\"" + r + r + r + "\"");          // overlong, 3 bytes
  EXPECT_EQ(jsonOf("\xED\xA0\x80"), "\"" + r + r + r + "\"");          // surrogate U+D800
  EXPECT_EQ(jsonOf("\xF4\x90\x80\x80"), "\"" + r + r + r + r + "\"");  // past U+10FFFF
  EXPECT_EQ(jsonOf("\xE2\x82"), "\"" + r + r + "\"");                  // cut short at the end
  EXPECT_EQ(jsonOf("\xE2\x82z"), "\"" + r + r + "z\"");                // cut short by ASCII
  EXPECT_EQ(jsonOf("\xC3"), "\"" + r + "\"");
}

TEST(JsonWriter, ObjectsAndArraysNestWithoutTrailingCommas) {
  std::string out;
  JsonWriter w(out);
  w.beginObject();
  w.key("type").string("record");
  w.key("cpu").integer(0);
  w.key("data").beginArray();
  w.beginObject().key("action").string("printf").key("text").string("hi\n").endObject();
  w.integer(-1);
  w.beginArray().endArray();
  w.beginObject().endObject();
  w.endArray();
  w.key("ok").boolean(true);
  w.key("missing").null();
  w.endObject();
  EXPECT_EQ(out, R"({"type":"record","cpu":0,"data":[{"action":"printf","text":"hi\n"},-1,[],{}],)"
                 R"("ok":true,"missing":null})");
  EXPECT_TRUE(w.complete());
}

TEST(JsonWriter, EmptyContainers) {
  std::string out;
  JsonWriter(out).beginArray().endArray();
  EXPECT_EQ(out, "[]");
  out.clear();
  JsonWriter(out).beginObject().endObject();
  EXPECT_EQ(out, "{}");
}

TEST(JsonWriter, SixtyFourBitIntegersAreExact) {
  std::string out;
  JsonWriter w(out);
  w.beginArray();
  w.integer(std::numeric_limits<int64_t>::min());
  w.integer(std::numeric_limits<int64_t>::max());
  w.unsignedInteger(std::numeric_limits<uint64_t>::max());
  w.unsignedInteger((uint64_t{1} << 53) + 1);  // beyond a double's precision
  w.endArray();
  EXPECT_EQ(out,
            "[-9223372036854775808,9223372036854775807,18446744073709551615,"
            "9007199254740993]");
}

TEST(JsonWriter, KeysAreEscapedToo) {
  std::string out;
  JsonWriter(out).beginObject().key("a\"b\n").boolean(false).endObject();
  EXPECT_EQ(out, R"({"a\"b\n":false})");
}

TEST(JsonWriter, CompleteOnlyOnceTheValueIsClosed) {
  std::string out;
  JsonWriter w(out);
  EXPECT_FALSE(w.complete());
  w.beginObject().key("a").beginArray();
  EXPECT_FALSE(w.complete());
  w.endArray();
  EXPECT_FALSE(w.complete());
  w.endObject();
  EXPECT_TRUE(w.complete());

  std::string scalar;
  JsonWriter s(scalar);
  s.string("alone");
  EXPECT_TRUE(s.complete());
  EXPECT_EQ(scalar, R"("alone")");
}

TEST(JsonWriter, AppendsToWhatIsThere) {
  std::string line = "prefix ";
  JsonWriter(line).beginObject().key("n").integer(1).endObject();
  line += '\n';
  EXPECT_EQ(line, "prefix {\"n\":1}\n");
}

}  // namespace
}  // namespace dtrace::print
