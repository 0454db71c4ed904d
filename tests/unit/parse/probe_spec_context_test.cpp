// dtrace -P/-m/-f: a description's last part names a provider, module or
// function (libdtrace's probe-spec contexts), predicates and actions intact.
#include <gtest/gtest.h>

#include "parse/parser.h"

namespace dtrace::parse {
namespace {

ast::ProbeSpec firstSpec(std::string_view text, ProbeSpecContext context) {
  ParseOptions options;
  options.allowBareProbeSpec = true;
  options.probeSpecContext = context;
  ParseResult parsed = parseProgram(text, options);
  EXPECT_TRUE(parsed.diags.empty()) << text;
  for (auto& item : parsed.program.items) {
    if (auto* clause = std::get_if<ast::ProbeClause>(&item)) return clause->probes.at(0);
  }
  ADD_FAILURE() << "no clause in " << text;
  return {};
}

std::string fields(const ast::ProbeSpec& s) {
  return s.provider + "|" + s.module + "|" + s.function + "|" + s.name;
}

TEST(ProbeSpecContext, LastPartFillsTheContextsField) {
  EXPECT_EQ(fields(firstSpec("syscall{ exit(0); }", ProbeSpecContext::Provider)), "syscall|||");
  EXPECT_EQ(fields(firstSpec("vmlinux{ }", ProbeSpecContext::Module)), "|vmlinux||");
  EXPECT_EQ(fields(firstSpec("fbt:vmlinux{ }", ProbeSpecContext::Module)), "fbt|vmlinux||");
  EXPECT_EQ(fields(firstSpec("read{ }", ProbeSpecContext::Function)), "||read|");
  EXPECT_EQ(fields(firstSpec("syscall::read", ProbeSpecContext::Function)), "syscall||read|");
  EXPECT_EQ(fields(firstSpec("entry{ }", ProbeSpecContext::Name)), "|||entry");
}

TEST(ProbeSpecContext, PredicateAndActionsStayTheProgram) {
  ParseOptions options;
  options.probeSpecContext = ProbeSpecContext::Provider;
  ParseResult parsed = parseProgram("syscall/pid == 1/{ exit(0); }", options);
  ASSERT_TRUE(parsed.diags.empty());
  auto* clause = std::get_if<ast::ProbeClause>(&parsed.program.items.at(0));
  ASSERT_NE(clause, nullptr);
  EXPECT_EQ(fields(clause->probes.at(0)), "syscall|||");
  EXPECT_NE(clause->predicate, nullptr);
  EXPECT_EQ(clause->body.size(), 1u);
}

TEST(ProbeSpecContext, FieldsLeftOfTheProviderAreOverspecified) {
  ParseOptions options;
  options.probeSpecContext = ProbeSpecContext::Provider;
  ParseResult parsed = parseProgram("a:b{ }", options);
  ASSERT_FALSE(parsed.diags.empty());
  EXPECT_EQ(parsed.diags.first().message,
            "invalid probe description \"a:b\": Overspecified probe description");
}

TEST(ProbeSpecContext, ProbeIdsOnlyNameProbes) {
  ParseOptions options;
  options.probeSpecContext = ProbeSpecContext::Module;
  ParseResult parsed = parseProgram("1{ }", options);
  ASSERT_FALSE(parsed.diags.empty());
  EXPECT_EQ(parsed.diags.first().message,
            "probe identifier 1 not permitted when specifying modules");
}

}  // namespace
}  // namespace dtrace::parse
