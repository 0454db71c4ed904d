#include "print/folded.h"

#include <charconv>

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
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, sample.count);
  out.append(buf, end);
  out += '\n';
}

std::string foldedStacks(std::span<const StackSample> samples) {
  std::string out;
  for (const StackSample& sample : samples) appendFoldedLine(out, sample);
  return out;
}

}  // namespace dtrace::print
