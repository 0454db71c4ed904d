#include "providers/description.h"

#include <gtest/gtest.h>

namespace dtrace::providers {
namespace {

ast::ProbeSpec split(const char* text, DescriptionField last = DescriptionField::Name) {
  Result<ast::ProbeSpec> r = splitProbeDescription(text, last);
  EXPECT_TRUE(r.ok()) << text;
  return r.ok() ? *r : ast::ProbeSpec{};
}

TEST(ProbeDescription, FullDescription) {
  ast::ProbeSpec s = split("syscall::read:entry");
  EXPECT_EQ(s.provider, "syscall");
  EXPECT_EQ(s.module, "");
  EXPECT_EQ(s.function, "read");
  EXPECT_EQ(s.name, "entry");
  EXPECT_EQ(s.text, "syscall::read:entry");
}

TEST(ProbeDescription, PartialDescriptionsFillFromTheRight) {
  ast::ProbeSpec s = split("BEGIN");
  EXPECT_EQ(s.provider, "");
  EXPECT_EQ(s.function, "");
  EXPECT_EQ(s.name, "BEGIN");

  s = split("read:entry");
  EXPECT_EQ(s.provider, "");
  EXPECT_EQ(s.module, "");
  EXPECT_EQ(s.function, "read");
  EXPECT_EQ(s.name, "entry");

  s = split("syscall:::");
  EXPECT_EQ(s.provider, "syscall");
  EXPECT_EQ(s.name, "");

  s = split("");
  EXPECT_EQ(s.name, "");
}

TEST(ProbeDescription, OtherLastFields) {
  ast::ProbeSpec s = split("syscall", DescriptionField::Provider);
  EXPECT_EQ(s.provider, "syscall");
  EXPECT_EQ(s.name, "");

  s = split("syscall:read", DescriptionField::Function);
  EXPECT_EQ(s.module, "syscall");
  EXPECT_EQ(s.function, "read");

  s = split("profile:", DescriptionField::Module);
  EXPECT_EQ(s.provider, "profile");
  EXPECT_EQ(s.module, "");
}

TEST(ProbeDescription, TooManyFieldsIsAnError) {
  EXPECT_FALSE(splitProbeDescription("a:b:c:d:e").ok());
  EXPECT_FALSE(splitProbeDescription("a:b", DescriptionField::Provider).ok());
  EXPECT_EQ(describeSpec(split("read:entry")), "::read:entry");
}

}  // namespace
}  // namespace dtrace::providers
