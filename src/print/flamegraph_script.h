// The style sheet and the JavaScript embedded in every flame graph SVG
// (see flamegraph.h for what they do). They rely on the document's
// structure, which flamegraph.cpp writes: a <g id="frames"> holding one
// <g class="frame"> per frame, each with data-depth, data-start and
// data-samples (the frame's interval on the sample axis), a <title> that
// starts with the frame's name and ends in " (...)", a <rect> and a
// <text>.
#pragma once

#include <string_view>

namespace dtrace::print {

extern const std::string_view kFlameGraphStyle;
// Free of "]]>", so that it can sit in a CDATA section.
extern const std::string_view kFlameGraphScript;

// The width of a character of a frame label, in pixels, in the monospace
// font the style sheet gives labels: the renderer and the script cut
// labels to fit with it.
inline constexpr double kFlameLabelCharWidth = 6.7;
// Room kept free at each end of a label, in pixels.
inline constexpr double kFlameLabelPadding = 3;

}  // namespace dtrace::print
