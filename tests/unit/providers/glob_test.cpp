#include "providers/glob.h"

#include <gtest/gtest.h>

namespace dtrace::providers {
namespace {

TEST(Gmatch, LiteralsAndStars) {
  EXPECT_TRUE(gmatch("read", "read"));
  EXPECT_FALSE(gmatch("read", "rea"));
  EXPECT_FALSE(gmatch("rea", "read"));
  EXPECT_TRUE(gmatch("read", "read*"));
  EXPECT_TRUE(gmatch("readv", "read*"));
  EXPECT_TRUE(gmatch("", "*"));
  EXPECT_TRUE(gmatch("pread64", "*read*"));
  EXPECT_FALSE(gmatch("write", "*read*"));
  EXPECT_TRUE(gmatch("abcabc", "*abc"));
  EXPECT_TRUE(gmatch("aXbYc", "a*b*c"));
  EXPECT_FALSE(gmatch("aXbY", "a*b*c"));
  EXPECT_TRUE(gmatch("a", "**a**"));
  EXPECT_FALSE(gmatch("", "a"));
  EXPECT_TRUE(gmatch("", ""));
  EXPECT_FALSE(gmatch("x", ""));
}

TEST(Gmatch, QuestionMark) {
  EXPECT_TRUE(gmatch("tick-1", "tick-?"));
  EXPECT_FALSE(gmatch("tick-10", "tick-?"));
  EXPECT_TRUE(gmatch("tick-10", "tick-??"));
  EXPECT_FALSE(gmatch("", "?"));
}

TEST(Gmatch, BracketClasses) {
  EXPECT_TRUE(gmatch("read", "[rw]ead"));
  EXPECT_TRUE(gmatch("wead", "[rw]ead"));
  EXPECT_FALSE(gmatch("bead", "[rw]ead"));
  EXPECT_TRUE(gmatch("x5", "x[0-9]"));
  EXPECT_FALSE(gmatch("xa", "x[0-9]"));
  EXPECT_TRUE(gmatch("xa", "x[!0-9]"));
  EXPECT_FALSE(gmatch("x5", "x[!0-9]"));
  EXPECT_TRUE(gmatch("a]", "a[]]"));
  EXPECT_TRUE(gmatch("a-", "a[a-]"));
  EXPECT_FALSE(gmatch("ab", "a[b"));  // unterminated class matches nothing
  EXPECT_TRUE(gmatch("sys_read", "*[_]read"));
}

TEST(Gmatch, Escapes) {
  EXPECT_TRUE(gmatch("a*b", "a\\*b"));
  EXPECT_FALSE(gmatch("axb", "a\\*b"));
  EXPECT_TRUE(gmatch("a?", "a\\?"));
}

TEST(Gmatch, GlobDetectionAndEmptyField) {
  EXPECT_TRUE(isGlob("read*"));
  EXPECT_TRUE(isGlob("re?d"));
  EXPECT_TRUE(isGlob("[rw]ead"));
  EXPECT_FALSE(isGlob("read"));
  EXPECT_FALSE(isGlob(""));
  EXPECT_TRUE(fieldMatches("anything", ""));
  EXPECT_TRUE(fieldMatches("", ""));
  EXPECT_FALSE(fieldMatches("", "x"));
}

}  // namespace
}  // namespace dtrace::providers
