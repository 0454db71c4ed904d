// A flame graph as one self-contained, interactive SVG file (-x
// flamegraph=FILE.svg): stacks merged into frames whose widths are their
// share of the samples, the root at the bottom and callees above their
// callers. Opened in a browser, a click zooms into a frame, "Reset Zoom"
// (or Escape) zooms out, and the search box highlights the frames whose
// names match a regular expression with the share of samples they cover.
// ?s=TERM and ?z=DEPTH,START in the file's address restore a search and a
// zoom. Nothing is loaded from elsewhere. The same samples and options
// always give the same bytes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "print/stack_sample.h"

namespace dtrace::print {

struct FlameGraphOptions {
  std::string title = "Flame Graph";
  std::string subtitle;               // a second line under the title, if any
  std::string countName = "samples";  // what the counts are, for tooltips
  int width = 1200;                   // of the image, in pixels
  int frameHeight = 16;               // of a row, in pixels
  // Frames narrower than this, in pixels, are left out (with the frames
  // above them): they could not be seen or clicked, and a large profile
  // has many thousands of them.
  double minFrameWidth = 0.1;
};

struct Rgb {
  uint8_t r, g, b;
  bool operator==(const Rgb&) const = default;
};

// The fill of a frame: a warm colour (red to yellow) chosen by a hash of
// its name, so a function has the same colour in every graph.
Rgb flameColor(std::string_view name);

// The label a frame of `width` pixels shows: the whole name when it fits,
// else as much as fits followed by "..", or nothing when not even three
// characters fit. Characters are counted as code points.
std::string flameLabel(std::string_view name, double width);

// The SVG document.
std::string renderFlameGraph(std::span<const StackSample> samples,
                             const FlameGraphOptions& options = {});

}  // namespace dtrace::print
