#include "ir/subroutine.h"

#include <gtest/gtest.h>

#include "util/d_version.h"

namespace dtrace::ir {
namespace {

TEST(SubroutineTable, RowsAreInTheEnumsOrder) {
  for (int i = 0; i <= static_cast<int>(Subroutine::StringAddress); i++) {
    const auto subr = static_cast<Subroutine>(i);
    EXPECT_EQ(subroutineInfo(subr).subr, subr) << subroutineInfo(subr).name;
  }
}

TEST(SubroutineTable, NamesResolveToTheirRows) {
  for (const char* name : {"strlen", "copyinstr", "strjoin", "alloca", "bcopy", "rand",
                           "inet_ntoa6", "copyout", "getf"}) {
    const SubroutineInfo* info = findSubroutine(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_STREQ(subroutineInfo(info->subr).name, name);
  }
  EXPECT_EQ(findSubroutine("printf"), nullptr);   // an action
  EXPECT_EQ(findSubroutine("count"), nullptr);    // an aggregating function
  EXPECT_EQ(findSubroutine("string+"), nullptr);  // internal: no D identifier names it
}

TEST(SubroutineTable, SaysWhatTheCompilerUsedToDecideByName) {
  EXPECT_EQ(findSubroutine("strjoin")->scratch, SubroutineScratch::Join);
  EXPECT_EQ(findSubroutine("strstr")->scratch, SubroutineScratch::Areas);
  EXPECT_EQ(findSubroutine("strlen")->scratch, SubroutineScratch::None);
  EXPECT_EQ(subroutineInfo(Subroutine::StringAddress).scratch, SubroutineScratch::Areas);
  EXPECT_TRUE(findSubroutine("copyout")->destructive);
  EXPECT_TRUE(findSubroutine("copyout")->unavailable.has_value());
  EXPECT_FALSE(findSubroutine("mutex_owned")->destructive);
  EXPECT_FALSE(findSubroutine("copyin")->unavailable.has_value());
  EXPECT_EQ(findSubroutine("strtoll")->introduced, dVersion(1, 11));
  EXPECT_EQ(findSubroutine("strlen")->introduced, dVersion(1, 0));
  EXPECT_EQ(findSubroutine("bcopy")->voidPointerArgs, 0b011);
  EXPECT_EQ(findSubroutine("substr")->minArgs, 2);
  EXPECT_EQ(findSubroutine("substr")->maxArgs, 3);
}

}  // namespace
}  // namespace dtrace::ir
