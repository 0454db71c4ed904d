#include <gtest/gtest.h>

#include "providers/profile_provider.h"
#include "util/cpu_list.h"

namespace dtrace::providers {
namespace {

uint64_t period(const char* name) {
  Result<ProfileRate> r = parseProfileName(name);
  EXPECT_TRUE(r.ok()) << name << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() ? r->periodNs : 0;
}

TEST(ProfileName, BareNumberIsHertz) {
  EXPECT_EQ(period("profile-97"), 1000000000ULL / 97);
  EXPECT_EQ(period("tick-1"), 1000000000ULL);
  EXPECT_EQ(period("tick-1000"), 1000000ULL);
  EXPECT_EQ(period("profile-1001hz"), 1000000000ULL / 1001);
  EXPECT_EQ(period("profile-5000"), 200000ULL);  // the fastest allowed
}

TEST(ProfileName, Units) {
  EXPECT_EQ(period("tick-1s"), 1000000000ULL);
  EXPECT_EQ(period("tick-1sec"), 1000000000ULL);
  EXPECT_EQ(period("tick-10ms"), 10000000ULL);
  EXPECT_EQ(period("tick-10msec"), 10000000ULL);
  EXPECT_EQ(period("tick-500us"), 500000ULL);
  EXPECT_EQ(period("tick-500usec"), 500000ULL);
  EXPECT_EQ(period("tick-300000ns"), 300000ULL);
  EXPECT_EQ(period("tick-300000nsec"), 300000ULL);
  EXPECT_EQ(period("tick-2m"), 120000000000ULL);
  EXPECT_EQ(period("tick-2min"), 120000000000ULL);
  EXPECT_EQ(period("tick-1h"), 3600000000000ULL);
  EXPECT_EQ(period("tick-1hour"), 3600000000000ULL);
  EXPECT_EQ(period("tick-1d"), 86400000000000ULL);
  EXPECT_EQ(period("tick-1day"), 86400000000000ULL);
  EXPECT_EQ(period("tick-5SEC"), 5000000000ULL);  // units ignore case
  EXPECT_EQ(period("profile-97Hz"), 1000000000ULL / 97);
}

TEST(ProfileName, KindFollowsPrefix) {
  EXPECT_TRUE(parseProfileName("tick-1s")->tick);
  EXPECT_FALSE(parseProfileName("profile-1s")->tick);
}

TEST(ProfileName, InvalidNames) {
  for (const char* bad :
       {"tick-", "profile-", "tick-0", "tick-abc", "tick-1x", "tick-1 s", "tick-s", "tick--1",
        "tick-1.5s", "tock-1", "BEGIN", "profile", "tick-10ms5", "tick-99999999999999999999"}) {
    EXPECT_FALSE(parseProfileName(bad).ok()) << bad;
  }
}

TEST(ProfileName, TooFastIsRefused) {
  EXPECT_FALSE(parseProfileName("profile-5001").ok());
  EXPECT_FALSE(parseProfileName("tick-199us").ok());
  EXPECT_FALSE(parseProfileName("tick-100ns").ok());
  EXPECT_TRUE(parseProfileName("tick-200us").ok());
}

TEST(ProfileName, DefaultNames) {
  const std::vector<std::string> expected = {
      "profile-97",   "profile-199",  "profile-499", "profile-997", "profile-1999",
      "profile-4001", "profile-4999", "tick-1",      "tick-10",     "tick-100",
      "tick-500",     "tick-1000",    "tick-5000"};
  EXPECT_EQ(defaultProfileNames(), expected);
}

TEST(ProfileName, CpuList) {
  EXPECT_EQ(parseCpuList("0-1\n"), (std::vector<int>{0, 1}));
  EXPECT_EQ(parseCpuList("0"), (std::vector<int>{0}));
  EXPECT_EQ(parseCpuList("0,2-4,7"), (std::vector<int>{0, 2, 3, 4, 7}));
  EXPECT_TRUE(parseCpuList("").empty());
}

}  // namespace
}  // namespace dtrace::providers
