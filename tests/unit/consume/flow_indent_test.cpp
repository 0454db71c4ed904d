#include "consume/flow_indent.h"

#include <gtest/gtest.h>

namespace dtrace::consume {
namespace {

ir::Ecb ecbOf(uint32_t probeId, const char* provider, const char* function, const char* name) {
  ir::Ecb ecb;
  ecb.probeId = probeId;
  ecb.provider = provider;
  ecb.function = function;
  ecb.name = name;
  return ecb;
}

// The column without its CPU number and padding.
std::string column(FlowIndent& flow, uint32_t epid, const ir::Ecb& ecb,
                   std::optional<FlowIndent::Next> next = std::nullopt) {
  std::string out;
  flow.appendPrefix(out, 0, epid, ecb, next);
  EXPECT_EQ(out.size(), 4u + 41u + 1u);
  out = out.substr(4);
  return out.substr(0, out.find_last_not_of(' ') + 1);
}

TEST(FlowIndentTest, EntryAndReturnAreWholeNamesOrDashSuffixes) {
  EXPECT_EQ(FlowIndent::flowOf("entry"), FlowIndent::Flow::Entry);
  EXPECT_EQ(FlowIndent::flowOf("function-entry"), FlowIndent::Flow::Entry);
  EXPECT_EQ(FlowIndent::flowOf("return"), FlowIndent::Flow::Return);
  EXPECT_EQ(FlowIndent::flowOf("method-return"), FlowIndent::Flow::Return);
  EXPECT_EQ(FlowIndent::flowOf("carpentry"), FlowIndent::Flow::None);
  EXPECT_EQ(FlowIndent::flowOf("noreturn"), FlowIndent::Flow::None);
  EXPECT_EQ(FlowIndent::flowOf("-entry"), FlowIndent::Flow::Entry);
}

TEST(FlowIndentTest, CallsIndentAndReturnsStepBack) {
  FlowIndent flow;
  const ir::Ecb fEntry = ecbOf(1, "pid1", "f", "entry"), gEntry = ecbOf(2, "pid1", "g", "entry");
  const ir::Ecb gReturn = ecbOf(3, "pid1", "g", "return"),
                fReturn = ecbOf(4, "pid1", "f", "return");
  const ir::Ecb tick = ecbOf(5, "profile", "", "tick-1s");
  EXPECT_EQ(column(flow, 1, fEntry), " -> f");
  EXPECT_EQ(column(flow, 2, gEntry), "   -> g");
  EXPECT_EQ(column(flow, 5, tick), "    | :tick-1s");
  EXPECT_EQ(column(flow, 3, gReturn), "   <- g");
  EXPECT_EQ(column(flow, 4, fReturn), " <- f");
  EXPECT_EQ(column(flow, 4, fReturn), " <- f");  // never below the left edge
}

TEST(FlowIndentTest, SystemCallsUseDoubleArrows) {
  FlowIndent flow;
  EXPECT_EQ(column(flow, 1, ecbOf(7, "syscall", "read", "entry")), " => read");
  EXPECT_EQ(column(flow, 2, ecbOf(8, "syscall", "read", "return")), " <= read");
}

TEST(FlowIndentTest, AFiringsOtherClausesNeitherIndentNorStepBack) {
  FlowIndent flow;
  const ir::Ecb entry = ecbOf(1, "pid1", "f", "entry"), ret = ecbOf(2, "pid1", "f", "return");
  EXPECT_EQ(column(flow, 1, entry), " -> f");
  EXPECT_EQ(column(flow, 2, entry), "  | f:entry");  // EPID 2: the second clause
  // The first of two clauses on the return: EPID 4 of the same probe follows.
  EXPECT_EQ(column(flow, 3, ret, FlowIndent::Next{4, 2}), "  | f:return");
  EXPECT_EQ(column(flow, 4, ret, FlowIndent::Next{9, 77}), " <- f");
}

}  // namespace
}  // namespace dtrace::consume
