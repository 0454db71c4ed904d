#include "print/flame_tree.h"

#include <algorithm>

namespace dtrace::print {
namespace {

void layOut(const FlameNode& node, uint32_t depth, uint64_t start, uint64_t minSamples,
            std::vector<FlameFrame>& frames) {
  if (node.samples < minSamples) return;
  frames.push_back(FlameFrame{&node, depth, start});
  for (const FlameNode& child : node.children) {
    layOut(child, depth + 1, start, minSamples, frames);
    start += child.samples;
  }
}

}  // namespace

FlameNode buildFlameTree(std::span<const StackSample> samples, std::string rootName) {
  // Sorted by their frames, stacks that share a prefix come one after the
  // other: each frame is then either the last child added at its depth or
  // a new last child, and children come out in name order.
  std::vector<const StackSample*> sorted;
  sorted.reserve(samples.size());
  for (const StackSample& sample : samples) {
    if (sample.count > 0) sorted.push_back(&sample);
  }
  std::stable_sort(sorted.begin(), sorted.end(), [](const StackSample* a, const StackSample* b) {
    return a->frames < b->frames;
  });

  FlameNode root;
  root.name = std::move(rootName);
  for (const StackSample* sample : sorted) {
    FlameNode* node = &root;
    node->samples += sample->count;
    for (const std::string& frame : sample->frames) {
      if (node->children.empty() || node->children.back().name != frame)
        node->children.emplace_back().name = frame;
      node = &node->children.back();
      node->samples += sample->count;
    }
  }
  return root;
}

std::vector<FlameFrame> layOutFlameFrames(const FlameNode& root, uint64_t minSamples) {
  std::vector<FlameFrame> frames;
  layOut(root, 0, 0, minSamples, frames);
  return frames;
}

}  // namespace dtrace::print
