#include "print/flame_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace dtrace::print {
namespace {

const FlameNode& child(const FlameNode& node, size_t i) { return node.children.at(i); }

std::vector<std::string> childNames(const FlameNode& node) {
  std::vector<std::string> names;
  for (const FlameNode& c : node.children) names.push_back(c.name);
  return names;
}

TEST(FlameTree, StacksWithACommonPrefixMerge) {
  const std::vector<StackSample> samples = {
      {{"main", "parse", "lex"}, 30},   {{"main", "compile", "emit"}, 40},
      {{"main", "parse"}, 10},          {{"main", "compile", "optimize"}, 15},
      {{"main", "compile", "emit"}, 5},  // the same stack again adds up
  };
  const FlameNode root = buildFlameTree(samples);
  EXPECT_EQ(root.name, "all");
  EXPECT_EQ(root.samples, 100u);
  ASSERT_EQ(root.children.size(), 1u);
  const FlameNode& main = child(root, 0);
  EXPECT_EQ(main.name, "main");
  EXPECT_EQ(main.samples, 100u);
  EXPECT_EQ(childNames(main), (std::vector<std::string>{"compile", "parse"}));
  EXPECT_EQ(child(main, 0).samples, 60u);
  EXPECT_EQ(childNames(child(main, 0)), (std::vector<std::string>{"emit", "optimize"}));
  EXPECT_EQ(child(child(main, 0), 0).samples, 45u);
  EXPECT_EQ(child(main, 1).samples, 40u);  // 10 in parse itself, 30 in lex
  EXPECT_EQ(childNames(child(main, 1)), (std::vector<std::string>{"lex"}));
}

TEST(FlameTree, TheSameNameUnderDifferentCallersStaysApart) {
  const std::vector<StackSample> samples = {{{"a", "x"}, 1}, {{"b", "x"}, 2}};
  const FlameNode root = buildFlameTree(samples, "total");
  EXPECT_EQ(root.name, "total");
  EXPECT_EQ(childNames(root), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(child(child(root, 0), 0).samples, 1u);
  EXPECT_EQ(child(child(root, 1), 0).samples, 2u);
}

TEST(FlameTree, OrderOfSamplesDoesNotMatter) {
  std::vector<StackSample> samples = {
      {{"z"}, 1}, {{"a", "c"}, 2}, {{"a", "b"}, 3}, {{"m"}, 4}, {{"a"}, 5}};
  const FlameNode one = buildFlameTree(samples);
  std::reverse(samples.begin(), samples.end());
  const FlameNode other = buildFlameTree(samples);
  EXPECT_EQ(childNames(one), (std::vector<std::string>{"a", "m", "z"}));
  EXPECT_EQ(childNames(one), childNames(other));
  EXPECT_EQ(childNames(child(one, 0)), (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(childNames(child(one, 0)), childNames(child(other, 0)));
}

TEST(FlameTree, EmptyStacksAndZeroCountsOnlyCountTowardsTheRoot) {
  const std::vector<StackSample> samples = {{{}, 4}, {{"f"}, 0}, {{"g"}, 1}};
  const FlameNode root = buildFlameTree(samples);
  EXPECT_EQ(root.samples, 5u);
  EXPECT_EQ(childNames(root), (std::vector<std::string>{"g"}));
}

TEST(FlameLayout, ChildrenSitSideBySideFromTheirParentsStart) {
  const std::vector<StackSample> samples = {{{"main", "parse", "lex"}, 30},
                                            {{"main", "compile", "emit"}, 45},
                                            {{"main", "parse"}, 10},
                                            {{"main", "compile", "optimize"}, 15}};
  const FlameNode root = buildFlameTree(samples);
  const std::vector<FlameFrame> frames = layOutFlameFrames(root, 1);
  ASSERT_EQ(frames.size(), 7u);
  struct Expected {
    std::string name;
    uint32_t depth;
    uint64_t start, samples;
  };
  const std::vector<Expected> expected = {
      {"all", 0, 0, 100},      {"main", 1, 0, 100},  {"compile", 2, 0, 60}, {"emit", 3, 0, 45},
      {"optimize", 3, 45, 15}, {"parse", 2, 60, 40}, {"lex", 3, 60, 30}};
  for (size_t i = 0; i < expected.size(); i++) {
    SCOPED_TRACE(expected[i].name);
    EXPECT_EQ(frames[i].node->name, expected[i].name);
    EXPECT_EQ(frames[i].depth, expected[i].depth);
    EXPECT_EQ(frames[i].start, expected[i].start);
    EXPECT_EQ(frames[i].node->samples, expected[i].samples);
  }
}

TEST(FlameLayout, NarrowFramesAndWhatIsAboveThemAreLeftOut) {
  const std::vector<StackSample> samples = {
      {{"wide", "above"}, 96}, {{"narrow", "deeper", "deepest"}, 3}, {{"tiny"}, 1}};
  const FlameNode root = buildFlameTree(samples);
  std::vector<std::string> kept;
  for (const FlameFrame& f : layOutFlameFrames(root, 4)) kept.push_back(f.node->name);
  EXPECT_EQ(kept, (std::vector<std::string>{"all", "wide", "above"}));
  // The frames kept keep their place: "wide" starts after "narrow" (3) and
  // "tiny" (1), which sort before it.
  EXPECT_EQ(layOutFlameFrames(root, 4)[1].start, 4u);
}

TEST(FlameLayout, NothingToShowWithoutSamples) {
  const FlameNode root = buildFlameTree({});
  EXPECT_EQ(root.samples, 0u);
  EXPECT_TRUE(layOutFlameFrames(root, 1).empty());
}

}  // namespace
}  // namespace dtrace::print
