#include "sym/provider_section.h"

#include <gtest/gtest.h>

namespace dtrace::sym {
namespace {

using namespace std::string_literals;

std::vector<ProviderDefinition> sample() {
  ProviderProbe start{
      "query__start", {{"char *", 8}, {"int", -4}}, {{"string", 8}, {"int", -4}}, {0, 1}};
  ProviderProbe mapped{"mapped", {{"int", -4}, {"char *", 8}}, {{"char *", 8}}, {1}};
  ProviderProbe none{"done", {}, {}, {}};
  return {{"myapp", {start, mapped, none}},
          {"other", {{"tick", {{"long", -8}}, {{"long", -8}}, {0}}}}};
}

TEST(ProviderSection, RoundTrips) {
  const auto providers = sample();
  auto decoded = decodeProviderSection(encodeProviderSection(providers));
  ASSERT_TRUE(decoded) << decoded.error().message;
  EXPECT_EQ(*decoded, providers);
}

TEST(ProviderSection, RecordsAreNulTerminatedTextThatReadelfShows) {
  std::vector<ProviderDefinition> one{
      {"p", {{"d__ash", {{"unsigned long", 8}}, {{"unsigned long", 8}}, {0}}}}};
  EXPECT_EQ(encodeProviderSection(one),
            "dtrace-providers 1\0provider p\0probe d__ash 1 1\0arg 8 unsigned long\0"
            "xarg 0 8 unsigned long\0"s);
}

TEST(ProviderSection, EmptyListIsAValidBlock) {
  auto decoded = decodeProviderSection(encodeProviderSection({}));
  ASSERT_TRUE(decoded);
  EXPECT_TRUE(decoded->empty());
  auto nothing = decodeProviderSection("");
  ASSERT_TRUE(nothing);
  EXPECT_TRUE(nothing->empty());
}

// The linker concatenates the sections of all objects, with padding: the
// providers merge by name and a probe keeps its first definition.
TEST(ProviderSection, ConcatenatedBlocksMerge) {
  std::vector<ProviderDefinition> first{{"a", {{"x", {{"int", -4}}, {{"int", -4}}, {0}}}}};
  std::vector<ProviderDefinition> second{
      {"b", {{"y", {}, {}, {}}}},
      {"a", {{"x", {{"long", -8}}, {{"long", -8}}, {0}}, {"z", {}, {}, {}}}}};
  const std::string bytes =
      encodeProviderSection(first) + "\0\0\0"s + encodeProviderSection(second);
  auto decoded = decodeProviderSection(bytes);
  ASSERT_TRUE(decoded) << decoded.error().message;
  ASSERT_EQ(decoded->size(), 2u);
  EXPECT_EQ((*decoded)[0].name, "a");
  ASSERT_EQ((*decoded)[0].probes.size(), 2u);
  EXPECT_EQ((*decoded)[0].probes[0].nativeArgs.at(0).type, "int");  // the first x stands
  EXPECT_EQ((*decoded)[0].probes[1].name, "z");
  EXPECT_EQ((*decoded)[1].name, "b");
}

TEST(ProviderSection, MalformedSectionsAreRefusedWithTheRecord) {
  auto bad = [](std::string bytes) {
    auto r = decodeProviderSection(bytes);
    return r ? "accepted"s : r.error().message;
  };
  EXPECT_EQ(bad("provider p\0"s),
            "malformed .dtrace_providers section: records before the block's first record "
            "(record 1)");
  EXPECT_EQ(bad("dtrace-providers 2\0"s), "unsupported .dtrace_providers version 2 (record 1)");
  EXPECT_EQ(bad("dtrace-providers 1\0probe x 0 0\0"s),
            "malformed .dtrace_providers section: a probe outside a provider (record 2)");
  EXPECT_EQ(bad("dtrace-providers 1\0provider p\0probe x 1 0\0"s),
            "malformed .dtrace_providers section: a probe's arguments (record 3)");
  EXPECT_EQ(bad("dtrace-providers 1\0provider p\0probe x 1 0\0arg four int\0"s),
            "malformed .dtrace_providers section: an argument record (record 4)");
  EXPECT_EQ(bad("dtrace-providers 1\0provider p\0probe x 1 1\0arg 4 int\0xarg 1 4 int\0"s),
            "malformed .dtrace_providers section: a translated argument record (record 5)");
  EXPECT_EQ(bad("dtrace-providers 1\0provider p\0probe x\0"s),
            "malformed .dtrace_providers section: a probe record (record 3)");
  EXPECT_EQ(bad("dtrace-providers 1\0widget\0"s),
            "malformed .dtrace_providers section: a record kind (record 2)");
}

TEST(ProviderSection, AFileWithoutTheSectionHasNoProviders) {
  auto r = readProviderSection("/proc/self/exe");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->empty());
  auto missing = readProviderSection("/nonexistent/prog");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "failed to open /nonexistent/prog: No such file or directory");
}

}  // namespace
}  // namespace dtrace::sym
