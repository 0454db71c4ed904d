// The data of a flame graph: stacks merged into a tree of frames, and the
// frames laid out on a sample axis. Drawing them is flamegraph.cpp's job.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "print/stack_sample.h"

namespace dtrace::print {

// One frame of the merged tree: every sample whose stack starts with the
// same frames down to this one is counted here.
struct FlameNode {
  std::string name;
  uint64_t samples = 0;             // in this frame and in everything it called
  std::vector<FlameNode> children;  // sorted by name (bytewise)
};

// The samples merged under a root frame named `rootName`. Children are in
// name order, so the same stacks give the same graph whatever order they
// came in. Samples with a zero count are left out.
FlameNode buildFlameTree(std::span<const StackSample> samples, std::string rootName = "all");

// A frame placed on the graph: its row and its interval on the sample axis.
// A frame's interval holds its children's intervals, side by side in name
// order from its own start; samples that ended in the frame itself are the
// room left at its end.
struct FlameFrame {
  const FlameNode* node;
  uint32_t depth;  // 0 for the root
  uint64_t start;  // samples to the left of the frame in its row
};

// The frames of `root` in pre-order (each frame before its children),
// leaving out those with fewer than `minSamples` samples, and everything
// above them.
std::vector<FlameFrame> layOutFlameFrames(const FlameNode& root, uint64_t minSamples);

}  // namespace dtrace::print
