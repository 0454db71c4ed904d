// The consumer holds speculative records by tag (generation << 32 | ID)
// until their commit() or discard(); records of a use that already ended
// (read after the commit or discard, their CPU's buffer being read later)
// print at once if it was committed and are dropped if it was discarded.
#include "consume/speculations.h"

#include <gtest/gtest.h>

namespace dtrace::consume {
namespace {

constexpr uint64_t tag(uint32_t generation, uint32_t id) { return uint64_t{generation} << 32 | id; }

TEST(SpeculationBuffers, CommitReturnsTheUsesRecordsInOrder) {
  SpeculationBuffers b;
  b.setCount(2);
  b.hold(tag(1, 1), "a", 1);
  b.hold(tag(1, 2), "x", 1);
  b.hold(tag(1, 1), "b", 1);
  EXPECT_EQ(b.commit(tag(1, 1)), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(b.commit(tag(1, 1)).empty());  // a second commit finds nothing
  EXPECT_EQ(b.commit(tag(1, 2)), (std::vector<std::string>{"x"}));
}

TEST(SpeculationBuffers, DiscardDropsAndLateRecordsAreIgnored) {
  SpeculationBuffers b;
  b.setCount(1);
  EXPECT_EQ(b.hold(tag(1, 1), "old", 3), SpeculationBuffers::Hold::Held);
  b.discard(tag(1, 1));
  // recorded before the discard, arrived after
  EXPECT_EQ(b.hold(tag(1, 1), "late", 4), SpeculationBuffers::Hold::Dropped);
  b.hold(tag(2, 1), "new", 3);  // the next use of ID 1
  EXPECT_EQ(b.commit(tag(2, 1)), (std::vector<std::string>{"new"}));
}

// A record beyond specsize counts as a speculative drop only once its use
// is committed (dtrace_speculation_commit); a discard forgets it.
TEST(SpeculationBuffers, DropsCountOnlyForCommittedUses) {
  SpeculationBuffers b;
  b.setCount(2);
  b.drop(tag(1, 1));
  b.drop(tag(1, 1));
  b.drop(tag(1, 2));
  EXPECT_EQ(b.committedDrops(), 0u);
  b.discard(tag(1, 1));
  EXPECT_EQ(b.committedDrops(), 0u);
  b.commit(tag(1, 2));
  EXPECT_EQ(b.committedDrops(), 1u);
  b.drop(tag(1, 2));  // read after the commit: counted at once
  b.drop(tag(1, 1));  // read after the discard: never
  b.drop(tag(1, 7));  // not an ID
  EXPECT_EQ(b.committedDrops(), 2u);
}

TEST(SpeculationBuffers, ANewUseMayArriveBeforeTheLastOnesCommit) {
  SpeculationBuffers b;
  b.setCount(1);
  b.hold(tag(1, 1), "first", 5);
  b.hold(tag(2, 1), "second", 6);
  EXPECT_EQ(b.commit(tag(1, 1)), (std::vector<std::string>{"first"}));
  EXPECT_EQ(b.commit(tag(2, 1)), (std::vector<std::string>{"second"}));
}

TEST(SpeculationBuffers, LateRecordsOfACommittedUsePrintAtOnce) {
  SpeculationBuffers b;
  b.setCount(1);
  b.hold(tag(1, 1), "here", 4);
  EXPECT_EQ(b.commit(tag(1, 1)), (std::vector<std::string>{"here"}));
  EXPECT_EQ(b.hold(tag(1, 1), "other cpu", 9), SpeculationBuffers::Hold::Committed);
  EXPECT_EQ(b.hold(tag(2, 1), "next use", 8), SpeculationBuffers::Hold::Held);
}

TEST(SpeculationBuffers, EndsReadOutOfOrderKeepEachUsesOutcome) {
  SpeculationBuffers b;
  b.setCount(1);
  b.discard(tag(3, 1));  // read first: its CPU came first
  EXPECT_EQ(b.hold(tag(2, 1), "pending", 7), SpeculationBuffers::Hold::Held);
  EXPECT_EQ(b.commit(tag(2, 1)), (std::vector<std::string>{"pending"}));
  EXPECT_EQ(b.hold(tag(2, 1), "late", 4), SpeculationBuffers::Hold::Committed);
  EXPECT_EQ(b.hold(tag(3, 1), "late", 4), SpeculationBuffers::Hold::Dropped);
  b.commit(tag(100, 1));  // generation 2 is now too old to remember
  EXPECT_EQ(b.hold(tag(2, 1), "ancient", 7), SpeculationBuffers::Hold::Dropped);
}

TEST(SpeculationBuffers, IdsOutsideNspecHoldNothing) {
  SpeculationBuffers b;
  b.setCount(1);
  EXPECT_EQ(b.hold(tag(1, 0), "zero", 4), SpeculationBuffers::Hold::Dropped);
  EXPECT_EQ(b.hold(tag(1, 2), "beyond", 6), SpeculationBuffers::Hold::Dropped);
  EXPECT_TRUE(b.commit(tag(1, 0)).empty());
  EXPECT_TRUE(b.commit(tag(1, 2)).empty());
}

}  // namespace
}  // namespace dtrace::consume
