// Folded stacks, the text that flame graph tools read (flamegraph.pl,
// speedscope, inferno, Firefox Profiler): one line per stack, its frames
// root first joined by ';', a space, then its count:
//
//   bash;main;execute_command;fork 12
//
// -x oformat=folded writes stack aggregations this way.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "print/stack_sample.h"

namespace dtrace::print {

// A frame name that cannot break the format: ';' (the frame separator)
// and control characters (a newline would end the line) become '_'; an
// empty name (a frame with no symbol) becomes "[unknown]", as perf and the
// flame graph tools write it.
std::string foldedFrameName(std::string_view frame);

// One line, ending in '\n'. A sample without frames is one "[unknown]"
// frame, so that its count still shows in the total.
void appendFoldedLine(std::string& out, const StackSample& sample);

// A line for each sample with a count, in the order given (a sample
// counted 0 has no width in a flame graph).
std::string foldedStacks(std::span<const StackSample> samples);

}  // namespace dtrace::print
