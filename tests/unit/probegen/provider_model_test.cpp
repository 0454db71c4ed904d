#include "probegen/provider_model.h"

#include <gtest/gtest.h>

#include "probegen_test_util.h"

namespace dtrace::probegen {
namespace {

using testing::errorOf;
using testing::providersOf;

// "SIZE:dtype:ctype" for each native argument of the first probe.
std::vector<std::string> nativeArgs(const std::string& args, DataModel model = DataModel::LP64) {
  auto r = providersOf("provider p { probe x(" + args + "); };");
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  std::vector<std::string> out;
  if (!r) return out;
  for (const ArgumentType& a : r->at(0).probes.at(0).nativeArgs) {
    out.push_back(std::to_string(a.noteSize(model)) + ":" + a.dType + ":" + a.cType);
  }
  return out;
}

TEST(ProviderModel, SizesComeFromTheDeclaredTypes) {
  EXPECT_EQ(nativeArgs("int, char *, uintptr_t, char, short, unsigned long long"),
            (std::vector<std::string>{
                "-4:int:int", "8:char *:char *", "8:unsigned long:unsigned long", "-1:char:char",
                "-2:short:short", "8:unsigned long long:unsigned long long"}));
  EXPECT_EQ(nativeArgs("string, const char *, long, uint8_t, int64_t"),
            (std::vector<std::string>{"8:string:char *", "8:char *:char *", "-8:long:long",
                                      "1:unsigned char:unsigned char", "-8:long long:long long"}));
}

TEST(ProviderModel, PointersAndLongsAreFourBytesInILP32) {
  EXPECT_EQ(
      nativeArgs("char *, long, unsigned long, long long, int", DataModel::ILP32),
      (std::vector<std::string>{"4:char *:char *", "-4:long:long", "4:unsigned long:unsigned long",
                                "-8:long long:long long", "-4:int:int"}));
}

TEST(ProviderModel, TypesWithoutAPlainCSpellingPassAsPointers) {
  EXPECT_EQ(nativeArgs("struct foo *, int (*)(int), char [4], enum e, int **"),
            (std::vector<std::string>{"8:struct foo *:struct foo *", "8:int () *:void *",
                                      "8:char *:char *", "-4:enum e:int", "8:int **:int **"}));
}

TEST(ProviderModel, ScriptTypedefsAndVoidPrototypes) {
  auto r = providersOf(
      "typedef unsigned int Oid;\n"
      "provider pg { probe read(Oid, Oid); probe none(void); probe empty(); };");
  ASSERT_TRUE(r) << r.error().message;
  const auto& probes = r->at(0).probes;
  ASSERT_EQ(probes.size(), 3u);
  EXPECT_EQ(probes[0].nativeArgs.at(1).noteSize(DataModel::LP64), 4);
  EXPECT_EQ(probes[0].nativeArgs.at(1).cType, "unsigned int");
  EXPECT_TRUE(probes[1].nativeArgs.empty());
  EXPECT_TRUE(probes[2].nativeArgs.empty());
}

TEST(ProviderModel, TranslatedArgumentsMapByNameThenPosition) {
  auto r = providersOf(
      "provider p {\n"
      "  probe plain(int, char *);\n"
      "  probe swapped(int a, char *b) : (string b, int a);\n"
      "  probe positional(int, char *) : (long, string);\n"
      "};");
  ASSERT_TRUE(r) << r.error().message;
  const auto& probes = r->at(0).probes;
  EXPECT_EQ(probes[0].argMapping, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(probes[0].translatedArgs.at(1).dType, "char *");
  EXPECT_EQ(probes[1].argMapping, (std::vector<uint32_t>{1, 0}));
  EXPECT_EQ(probes[1].translatedArgs.at(0).dType, "string");
  EXPECT_EQ(probes[2].argMapping, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(probes[2].translatedArgs.at(0).noteSize(DataModel::LP64), -8);
}

TEST(ProviderModel, ProvidersDefinedTwiceMerge) {
  auto r = providersOf(
      "provider p { probe a(int); };\n"
      "provider q { probe b(); };\n"
      "provider p { probe a(int); probe c(); };");
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->size(), 2u);
  EXPECT_EQ(r->at(0).name, "p");
  ASSERT_EQ(r->at(0).probes.size(), 2u);
  EXPECT_EQ(r->at(0).probes[1].name, "c");
}

TEST(ProviderModel, SectionFormRecordsBothArgumentLists) {
  auto r = providersOf("provider p { probe x(int a, char *b) : (string b); };");
  ASSERT_TRUE(r) << r.error().message;
  sym::ProviderDefinition section = sectionForm(r->at(0), DataModel::ILP32);
  ASSERT_EQ(section.probes.size(), 1u);
  const sym::ProviderProbe& probe = section.probes[0];
  EXPECT_EQ(probe.nativeArgs, (std::vector<sym::ProviderArgType>{{"int", -4}, {"char *", 4}}));
  EXPECT_EQ(probe.translatedArgs, (std::vector<sym::ProviderArgType>{{"string", 4}}));
  EXPECT_EQ(probe.argMapping, (std::vector<uint32_t>{1}));
}

TEST(ProviderModel, ArgumentsAProbeCannotPassAreRefused) {
  EXPECT_EQ(errorOf("provider p {\n probe x(int, struct s);\n};"),
            "failed to compile script t.d: [D_PROV_ARGTYPE] line 2: probe p:x input argument #2 "
            "has type struct s: a probe passes integers and pointers");
  EXPECT_EQ(errorOf("provider p { probe x(double); };"),
            "failed to compile script t.d: [D_PROV_ARGTYPE] line 1: probe p:x input argument #1 "
            "has type double: a probe passes integers and pointers");
  EXPECT_EQ(errorOf("provider p { probe x(int a) : (int a, int b); };"),
            "failed to compile script t.d: [D_PROV_PRARGLEN] line 1: probe p:x output argument "
            "#2 has no input argument to be translated from");
}

TEST(ProviderModel, SemaRefusesBadNamesAndPrototypes) {
  EXPECT_EQ(errorOf("provider p1 { probe x(); };"),
            "failed to compile script t.d: [D_PROV_BADNAME] line 1: provider name may not end "
            "with a digit: p1");
  EXPECT_EQ(errorOf("provider p { probe x(int, ...); };"),
            "failed to compile script t.d: [D_DECL_PROTO_VARARGS] line 1: probe p:x input "
            "prototype may not use a variable-length argument list");
  EXPECT_EQ(errorOf("provider p { probe x(void, int); };"),
            "failed to compile script t.d: [D_DECL_PROTO_TYPE] line 1: probe p:x input prototype "
            "may not use parameter of type void: parameter #1");
  EXPECT_EQ(errorOf("provider p { probe x(int); };\nprovider p { probe x(long); };"),
            "failed to compile script t.d: [D_PROV_INCOMPAT] line 2: probe p:x input prototype "
            "mismatch");
  EXPECT_EQ(
      errorOf("provider p { probe x(int) : (int); };\nprovider p { probe x(int) : (long); };"),
      "failed to compile script t.d: [D_PROV_INCOMPAT] line 2: probe p:x output prototype "
      "mismatch");
  EXPECT_EQ(errorOf("provider p { probe x(nosuch_t); };"),
            "failed to compile script t.d: [D_SYNTAX] line 1: syntax error near \"nosuch_t\"");
  EXPECT_EQ(errorOf("typedef int t;"),
            "failed to compile script t.d: [D_EMPTY] line 1: empty D program translation unit");
}

// Clauses in a provider script are parsed, not compiled: -G makes no
// enablings, and Python's configure asks `dtrace -G` about `BEGIN{}`.
TEST(ProviderModel, ClausesAreAcceptedAndIgnored) {
  auto r = providersOf("BEGIN { x = nosuch(); }");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->empty());
}

}  // namespace
}  // namespace dtrace::probegen
