// -x version: dt_opt_version() accepts only well-formed versions D has.
#include <gtest/gtest.h>

#include "util/option_table.h"

namespace dtrace {
namespace {

TEST(OptionVersion, DefinedVersionsAreAccepted) {
  for (const char* v : {"1.0", "1", "1.2.1", "1.6.3", "1.12.1", "1.13", "1.13.0"}) {
    OptionTable o;
    EXPECT_TRUE(o.set("version", v).ok()) << v;
    EXPECT_EQ(o.text("version"), v);
  }
}

// dt_reduce(): lowering the version is allowed, raising it again is not.
TEST(OptionVersion, ALoweredVersionIsNotRaised) {
  OptionTable o;
  EXPECT_TRUE(o.set("version", "1.13").ok());
  EXPECT_TRUE(o.set("version", "1.2").ok());
  EXPECT_TRUE(o.set("version", "1.2.0").ok());
  auto r = o.set("version", "1.3");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, OptionTable::kVersionRaisedMessage);
  EXPECT_EQ(o.text("version"), "1.2.0");
}

TEST(OptionVersion, MalformedVersionsAreVersInval) {
  OptionTable o;
  for (const char* v : {"abc", "1.x", "1.2.3.4", "-1", "256.0", "1.4096"}) {
    auto r = o.set("version", v);
    ASSERT_FALSE(r.ok()) << v;
    EXPECT_EQ(r.error().message, OptionTable::kBadVersionMessage) << v;
  }
  EXPECT_FALSE(o.isSet("version"));
}

TEST(OptionVersion, UnknownVersionsAreVersUndef) {
  OptionTable o;
  for (const char* v : {"99.0", "1.14", "2.0", "1.2.3", "0.9"}) {
    auto r = o.set("version", v);
    ASSERT_FALSE(r.ok()) << v;
    EXPECT_EQ(r.error().message, OptionTable::kUndefinedVersionMessage) << v;
  }
}

}  // namespace
}  // namespace dtrace
