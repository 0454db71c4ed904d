// Renders folded stacks ("root;caller;leaf COUNT" lines, see
// src/print/folded.h) read from stdin as a flame graph SVG on stdout, for
// tests that look at the picture in a browser.
//
//   render_flamegraph [TITLE] < stacks.folded > graph.svg
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "print/flamegraph.h"
#include "print/stack_sample.h"

namespace {

// "a;b;c 12": the frames before the last space, the count after it.
bool parseFoldedLine(const std::string& line, dtrace::print::StackSample& sample) {
  const size_t space = line.rfind(' ');
  if (space == std::string::npos || space == 0) return false;
  try {
    size_t used = 0;
    sample.count = std::stoull(line.substr(space + 1), &used);
    if (used != line.size() - space - 1) return false;
  } catch (const std::exception&) {
    return false;
  }
  sample.frames.clear();
  const std::string frames = line.substr(0, space);
  for (size_t start = 0;;) {
    const size_t semicolon = frames.find(';', start);
    sample.frames.push_back(frames.substr(start, semicolon - start));
    if (semicolon == std::string::npos) break;
    start = semicolon + 1;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  dtrace::print::FlameGraphOptions options;
  if (argc > 1) options.title = argv[1];
  std::vector<dtrace::print::StackSample> samples;
  std::string line;
  for (int number = 1; std::getline(std::cin, line); number++) {
    if (line.empty()) continue;
    dtrace::print::StackSample sample;
    if (!parseFoldedLine(line, sample)) {
      std::cerr << "render_flamegraph: line " << number << " is not a folded stack\n";
      return 1;
    }
    samples.push_back(std::move(sample));
  }
  std::cout << dtrace::print::renderFlameGraph(samples, options);
  return std::cout.good() ? 0 : 1;
}
