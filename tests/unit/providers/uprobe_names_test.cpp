#include <gtest/gtest.h>

#include "providers/pid_provider.h"
#include "providers/uprobe_provider.h"

namespace dtrace::providers {
namespace {

TEST(UprobeNamesTest, ProviderProcessIds) {
  EXPECT_EQ(providerProcessId("pid1234"), 1234);
  EXPECT_EQ(providerProcessId("python42"), 42);
  EXPECT_EQ(providerProcessId("p*d77"), 77);
  EXPECT_EQ(providerProcessId("pid"), 0);
  EXPECT_EQ(providerProcessId("1234"), 0);
  EXPECT_EQ(providerProcessId("pid0"), -1);
}

TEST(UprobeNamesTest, ObjectsAsDescriptionsNameThem) {
  const char* libc = "/usr/lib/x86_64-linux-gnu/libc.so.6";
  EXPECT_TRUE(objectMatches("", libc, false));
  EXPECT_TRUE(objectMatches("libc.so.6", libc, false));
  EXPECT_TRUE(objectMatches("libc", libc, false));
  EXPECT_TRUE(objectMatches("libc.so", libc, false));
  EXPECT_TRUE(objectMatches("lib*", libc, false));
  EXPECT_TRUE(objectMatches(libc, libc, false));
  EXPECT_FALSE(objectMatches("libm", libc, false));
  EXPECT_FALSE(objectMatches("a.out", libc, false));
  EXPECT_TRUE(objectMatches("a.out", "/usr/bin/date", true));
  EXPECT_FALSE(objectMatches("libc.so.6.1", libc, false));
}

}  // namespace
}  // namespace dtrace::providers
