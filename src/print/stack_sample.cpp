#include "print/stack_sample.h"

#include <cctype>

namespace dtrace::print {

std::string_view withoutOffset(std::string_view frame) {
  const size_t plus = frame.rfind("+0x");
  if (plus == std::string_view::npos || plus == 0 || plus + 3 == frame.size()) return frame;
  for (size_t i = plus + 3; i < frame.size(); i++) {
    if (!std::isxdigit(static_cast<unsigned char>(frame[i]))) return frame;
  }
  return frame.substr(0, plus);
}

StackSample fromDTraceStack(std::span<const std::string> leafFirstFrames, uint64_t count) {
  StackSample sample;
  sample.count = count;
  sample.frames.reserve(leafFirstFrames.size());
  for (auto frame = leafFirstFrames.rbegin(); frame != leafFirstFrames.rend(); ++frame)
    sample.frames.emplace_back(withoutOffset(*frame));
  return sample;
}

}  // namespace dtrace::print
