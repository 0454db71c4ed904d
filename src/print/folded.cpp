#include "print/folded.h"

#include "print/appendf.h"

namespace dtrace::print {
namespace {

constexpr std::string_view kUnknownFrame = "[unknown]";

bool breaksFormat(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return c == ';' || byte < 0x20 || byte == 0x7F;
}

void appendFrameName(std::string& out, std::string_view frame) {
  if (frame.empty()) {
    out += kUnknownFrame;
    return;
  }
  for (char c : frame) out += breaksFormat(c) ? '_' : c;
}

}  // namespace

std::string foldedFrameName(std::string_view frame) {
  std::string name;
  appendFrameName(name, frame);
  return name;
}

void appendFoldedLine(std::string& out, const StackSample& sample) {
  if (sample.frames.empty()) out += kUnknownFrame;
  for (size_t i = 0; i < sample.frames.size(); i++) {
    if (i > 0) out += ';';
    appendFrameName(out, sample.frames[i]);
  }
  out += ' ';
  appendInteger(out, sample.count);
  out += '\n';
}

std::string foldedStacks(std::span<const StackSample> samples) {
  std::string out;
  for (const StackSample& sample : samples) {
    if (sample.count > 0) appendFoldedLine(out, sample);
  }
  return out;
}

}  // namespace dtrace::print
