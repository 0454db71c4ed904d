#include "probegen/probe_naming.h"

#include <gtest/gtest.h>

namespace dtrace::probegen {
namespace {

TEST(ProbeNaming, DoubleUnderscoresAreHyphensInDTraceNames) {
  EXPECT_EQ(dtraceProbeName("d__ash"), "d-ash");
  EXPECT_EQ(dtraceProbeName("query__start__now"), "query-start-now");
  EXPECT_EQ(dtraceProbeName("single_under"), "single_under");
  EXPECT_EQ(dtraceProbeName("a___b"), "a-_b");  // pairs from the left
  EXPECT_EQ(dtraceProbeName("done"), "done");
}

TEST(ProbeNaming, MacrosAreUpperCaseWithOneUnderscore) {
  EXPECT_EQ(probeMacroName("myapp", "d__ash"), "MYAPP_D_ASH");
  EXPECT_EQ(probeMacroName("postgresql", "transaction__start"), "POSTGRESQL_TRANSACTION_START");
  EXPECT_EQ(probeMacroName("python", "gc_done"), "PYTHON_GC_DONE");
  EXPECT_EQ(enabledMacroName("myapp", "d__ash"), "MYAPP_D_ASH_ENABLED");
}

TEST(ProbeNaming, SemaphoresKeepTheDeclaredName) {
  EXPECT_EQ(semaphoreName("myapp", "d__ash"), "myapp_d__ash_semaphore");
}

TEST(ProbeNaming, IncludeGuardComesFromTheOutputFile) {
  EXPECT_EQ(includeGuard("probes.h"), "_PROBES_H");
  EXPECT_EQ(includeGuard("build/Include/pydtrace_probes.h"), "_PYDTRACE_PROBES_H");
  EXPECT_EQ(includeGuard("my-app.v2.h"), "_MY_APP_V2_H");
}

TEST(ProbeNaming, DefaultOutputIsTheScriptsBaseName) {
  EXPECT_EQ(defaultOutputName("prov.d", ".h"), "prov.h");
  EXPECT_EQ(defaultOutputName("src/sub/prov.d", ".o"), "prov.o");
  EXPECT_EQ(defaultOutputName("prov.dd", ".h"), "");
  EXPECT_EQ(defaultOutputName("prov", ".h"), "");
}

}  // namespace
}  // namespace dtrace::probegen
