// C++ symbol names demangled for stacks and symbols; others untouched.
#include "print/demangle.h"

#include <gtest/gtest.h>

namespace dtrace::print {
namespace {

TEST(Demangle, MangledCxxNamesReadAsSource) {
  EXPECT_EQ(demangledName("_ZN4node5Realm19ExecuteBootstrapperEPKc"),
            "node::Realm::ExecuteBootstrapper(char const*)");
  EXPECT_EQ(demangledName("_ZN3app6Worker3runEi"), "app::Worker::run(int)");
}

TEST(Demangle, OtherNamesStayAsTheyAre) {
  EXPECT_EQ(demangledName("main"), "main");
  EXPECT_EQ(demangledName("JS:*hot /tmp/hot.js:1:1"), "JS:*hot /tmp/hot.js:1:1");
  EXPECT_EQ(demangledName("_Znot a name"), "_Znot a name");
  EXPECT_EQ(demangledName("_Z"), "_Z");
  EXPECT_EQ(demangledName(""), "");
}

}  // namespace
}  // namespace dtrace::print
