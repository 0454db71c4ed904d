#include "util/option_table.h"

#include <gtest/gtest.h>

#include <map>

namespace dtrace {
namespace {

TEST(OptionTable, Defaults) {
  OptionTable o;
  EXPECT_EQ(o.size("bufsize"), 4u << 20);
  EXPECT_EQ(o.size("aggsize"), 4u << 20);
  EXPECT_EQ(o.size("strsize"), 256u);
  EXPECT_EQ(o.size("dynvarsize"), 1u << 20);
  EXPECT_EQ(o.value("nspec"), 1u);
  EXPECT_EQ(o.value("stackframes"), 20u);
  EXPECT_EQ(o.value("ustackframes"), 20u);  // dtrace_ustackframes_default
  EXPECT_EQ(o.value("stackindent"), 14u);
  EXPECT_EQ(o.timeNs("switchrate"), 100000000u);  // 10hz here, 1hz in illumos
  EXPECT_EQ(o.timeNs("aggrate"), 1000000000u);
  EXPECT_EQ(o.timeNs("cleanrate"), 1000000000u / 101);
  EXPECT_EQ(o.text("bufpolicy"), "switch");
  EXPECT_EQ(o.text("bufresize"), "auto");
  EXPECT_FALSE(o.flag("quiet"));
  EXPECT_FALSE(o.isSet("cpu"));
}

TEST(OptionTable, Sizes) {
  OptionTable o;
  ASSERT_TRUE(o.set("bufsize", "16k").ok());
  EXPECT_EQ(o.size("bufsize"), 16u << 10);
  ASSERT_TRUE(o.set("bufsize", "2M").ok());
  EXPECT_EQ(o.size("bufsize"), 2u << 20);
  ASSERT_TRUE(o.set("bufsize", "1g").ok());
  EXPECT_EQ(o.size("bufsize"), 1ull << 30);
  ASSERT_TRUE(o.set("bufsize", "1t").ok());
  EXPECT_EQ(o.size("bufsize"), 1ull << 40);
  ASSERT_TRUE(o.set("bufsize", "4096").ok());
  EXPECT_EQ(o.size("bufsize"), 4096u);
  ASSERT_TRUE(o.set("bufsize", "0x1000").ok());
  EXPECT_EQ(o.size("bufsize"), 4096u);
  ASSERT_TRUE(o.set("strsize", "1k").ok());
  EXPECT_EQ(o.size("strsize"), 1024u);
}

TEST(OptionTable, BadSizes) {
  OptionTable o;
  for (const char* bad : {"4q", "m", "-1", "4mm", "1.5m", "k4"}) {
    Result<void> r = o.set("bufsize", bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().message, "Invalid value for specified option");
  }
  EXPECT_EQ(o.size("bufsize"), 4u << 20);  // unchanged
}

TEST(OptionTable, Times) {
  OptionTable o;
  ASSERT_TRUE(o.set("switchrate", "10hz").ok());
  EXPECT_EQ(o.timeNs("switchrate"), 100000000u);
  ASSERT_TRUE(o.set("switchrate", "10Hz").ok());
  EXPECT_EQ(o.timeNs("switchrate"), 100000000u);
  ASSERT_TRUE(o.set("aggrate", "500ms").ok());
  EXPECT_EQ(o.timeNs("aggrate"), 500000000u);
  ASSERT_TRUE(o.set("aggrate", "250us").ok());
  EXPECT_EQ(o.timeNs("aggrate"), 250000u);
  ASSERT_TRUE(o.set("aggrate", "2s").ok());
  EXPECT_EQ(o.timeNs("aggrate"), 2000000000u);
  ASSERT_TRUE(o.set("aggrate", "1min").ok());
  EXPECT_EQ(o.timeNs("aggrate"), 60000000000u);
  ASSERT_TRUE(o.set("aggrate", "75ns").ok());
  EXPECT_EQ(o.timeNs("aggrate"), 75u);
  ASSERT_TRUE(o.set("aggrate", "12345").ok());  // bare numbers are nanoseconds
  EXPECT_EQ(o.timeNs("aggrate"), 12345u);
  EXPECT_FALSE(o.set("aggrate", "10parsecs").ok());
  EXPECT_FALSE(o.set("aggrate", "hz").ok());
}

TEST(OptionTable, RuntimeFlagsTakeNoValueOrANumber) {
  OptionTable o;
  ASSERT_TRUE(o.set("quiet").ok());
  EXPECT_TRUE(o.flag("quiet"));
  // dt_opt_runtime(): an empty value unsets, as a negative word does.
  ASSERT_TRUE(o.set("quiet", "").ok());
  EXPECT_FALSE(o.flag("quiet"));
  ASSERT_TRUE(o.set("flowindent", "1").ok());
  EXPECT_TRUE(o.flag("flowindent"));
  ASSERT_TRUE(o.set("destructive", "yes").ok());
  EXPECT_TRUE(o.flag("destructive"));
  ASSERT_TRUE(o.set("destructive", "no").ok());
  EXPECT_FALSE(o.flag("destructive"));
  ASSERT_TRUE(o.set("nspec", "4").ok());
  EXPECT_EQ(o.value("nspec"), 4u);
  ASSERT_TRUE(o.set("cpu", "1").ok());
  EXPECT_TRUE(o.isSet("cpu"));
  EXPECT_EQ(o.value("cpu"), 1u);
}

TEST(OptionTable, CompileTimeFlagsRefuseValues) {
  OptionTable o;
  ASSERT_TRUE(o.set("errtags").ok());
  EXPECT_TRUE(o.flag("errtags"));
  EXPECT_FALSE(o.set("zdefs", "1").ok());
  EXPECT_FALSE(o.set("zdefs", "").ok());  // "-x zdefs=" is a value too
  EXPECT_FALSE(o.flag("zdefs"));
  ASSERT_TRUE(o.set("defaultargs").ok());
  EXPECT_TRUE(o.flag("defaultargs"));
}

TEST(OptionTable, OnlyDynamicOptionsChangeWhileTracing) {
  OptionTable o;
  Result<void> r = o.setWhileTracing("bufsize", "1m");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Operation illegal when tracing is active");
  EXPECT_EQ(o.size("bufsize"), 4u << 20);
  EXPECT_FALSE(o.setWhileTracing("destructive", "1").ok());
  ASSERT_TRUE(o.setWhileTracing("quiet", "1").ok());
  EXPECT_TRUE(o.flag("quiet"));
  ASSERT_TRUE(o.setWhileTracing("switchrate", "5hz").ok());
  EXPECT_EQ(o.timeNs("switchrate"), 200000000u);
  // Compile-time options keep their own answer.
  r = o.setWhileTracing("zdefs", "1");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Invalid value for specified option");
}

TEST(OptionTable, EnvironmentVariablesSetOptions) {
  OptionTable o;
  std::map<std::string, std::string> env = {{"DTRACE_OPT_BUFSIZE", "8k"},
                                            {"DTRACE_OPT_QUIET", "yes"},
                                            {"DTRACE_OPT_ZDEFS", "1"},  // refused: ignored
                                            {"DTRACE_OPT_STRSIZE", "huge"},
                                            {"DTRACE_OPT_CPPARGS", "-Dx -Dy"}};
  o.setFromEnvironment([&](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
  EXPECT_EQ(o.size("bufsize"), 8u << 10);
  EXPECT_TRUE(o.flag("quiet"));
  EXPECT_FALSE(o.flag("zdefs"));
  EXPECT_EQ(o.size("strsize"), 256u);
  EXPECT_EQ(o.cppArgs(), (std::vector<std::string>{"-Dx", "-Dy"}));
}

TEST(OptionTable, SetenvAndUnsetenv) {
  OptionTable o;
  ASSERT_TRUE(o.set("setenv", "A=1").ok());
  ASSERT_TRUE(o.set("setenv", "B=2").ok());
  ASSERT_TRUE(o.set("unsetenv", "HOME").ok());
  EXPECT_FALSE(o.set("unsetenv", "A=1").ok());  // unsetenv names a variable only
  EXPECT_FALSE(o.set("setenv").ok());
  const std::vector<std::string> env =
      editedEnvironment({"HOME=/root", "A=0", "PATH=/bin"}, o.environmentEdits());
  EXPECT_EQ(env, (std::vector<std::string>{"PATH=/bin", "A=1", "B=2"}));
}

TEST(OptionTable, StrsizeOverflowAndEmptyVersion) {
  OptionTable o;
  Result<void> r = o.set("strsize", "4g");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Value too large for defined data type");
  r = o.set("version", "");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Requested version is not supported by compiler");
}

TEST(OptionTable, Choices) {
  OptionTable o;
  ASSERT_TRUE(o.set("bufpolicy", "ring").ok());
  EXPECT_EQ(o.text("bufpolicy"), "ring");
  ASSERT_TRUE(o.set("bufpolicy", "fill").ok());
  EXPECT_FALSE(o.set("bufpolicy", "circular").ok());
  EXPECT_FALSE(o.set("bufpolicy", "").ok());
  EXPECT_EQ(o.text("bufpolicy"), "fill");
  ASSERT_TRUE(o.set("bufresize", "manual").ok());
  ASSERT_TRUE(o.set("linktype", "ELF").ok());
  EXPECT_EQ(o.text("linktype"), "elf");
}

TEST(OptionTable, CppArgsAccumulate) {
  OptionTable o;
  ASSERT_TRUE(o.set("define", "X=1").ok());
  ASSERT_TRUE(o.set("undef", "Y").ok());
  ASSERT_TRUE(o.set("incdir", "/inc").ok());
  EXPECT_EQ(o.cppArgs(), (std::vector<std::string>{"-DX=1", "-UY", "-I/inc"}));
  EXPECT_FALSE(o.set("define", "").ok());
}

TEST(OptionTable, UnknownOption) {
  OptionTable o;
  Result<void> r = o.set("nosuchoption", "1");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "Invalid option name");
  EXPECT_FALSE(o.flag("nosuchoption"));
  EXPECT_EQ(OptionTable::find("nosuchoption"), nullptr);
}

TEST(OptionTable, TableIsSortedAndDefaultsParse) {
  const auto& specs = OptionTable::specs();
  for (size_t i = 1; i < specs.size(); i++) EXPECT_LT(specs[i - 1].name, specs[i].name);
  OptionTable o;
  for (const OptionSpec& spec : specs) {
    if (!spec.defaultValue.empty()) {
      EXPECT_TRUE(o.isSet(spec.name)) << spec.name;
    }
  }
}

TEST(OptionParsers, SharedParsers) {
  EXPECT_EQ(*parseOptionSize("8k"), 8192u);
  EXPECT_FALSE(parseOptionSize("").ok());
  EXPECT_EQ(*parseOptionTime("10ms"), 10000000u);
  EXPECT_EQ(*parseOptionTime("4hz"), 250000000u);
}

}  // namespace
}  // namespace dtrace
