#include "print/xml.h"

#include <gtest/gtest.h>

#include <string>

namespace dtrace::print {
namespace {

std::string escaped(std::string_view text) {
  std::string out;
  appendXmlEscaped(out, text);
  return out;
}

const std::string kReplacement = "\xEF\xBF\xBD";

TEST(XmlEscape, MarkupCharactersBecomeEntities) {
  EXPECT_EQ(escaped(R"(<init>&"quoted"'s)"), "&lt;init&gt;&amp;&quot;quoted&quot;&#39;s");
  EXPECT_EQ(escaped("std::vector<int>::push_back"), "std::vector&lt;int&gt;::push_back");
}

TEST(XmlEscape, ControlCharactersXmlForbidsAreReplaced) {
  EXPECT_EQ(escaped(std::string_view("a\0b", 3)), "a" + kReplacement + "b");
  EXPECT_EQ(escaped("\x01\x1b[0m"), kReplacement + kReplacement + "[0m");
  EXPECT_EQ(escaped("tab\there\nnew\rline"), "tab\there\nnew\rline");           // allowed
  EXPECT_EQ(escaped("\xEF\xBF\xBE\xEF\xBF\xBF"), kReplacement + kReplacement);  // U+FFFE, U+FFFF
}

TEST(XmlEscape, InvalidUtf8BecomesReplacementCharacters) {
  EXPECT_EQ(escaped("caf\xC3\xA9"), "caf\xC3\xA9");
  EXPECT_EQ(escaped("\xFF\xFE"), kReplacement + kReplacement);
  EXPECT_EQ(escaped("\xE2\x82"), kReplacement + kReplacement);
  EXPECT_EQ(escaped("\xF0\x9F\x94\xA5"), "\xF0\x9F\x94\xA5");
}

}  // namespace
}  // namespace dtrace::print
