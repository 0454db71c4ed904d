// A stack and its weight, as folded stacks and flame graphs take them.
// DTrace records a stack leaf first (the function the probe fired in,
// then its caller, out to the thread's first function); flame graphs and
// the folded format want it root first. StackSample is always root first,
// and fromDTraceStack is the one place the order turns.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::print {

struct StackSample {
  std::vector<std::string> frames;  // root first: frames[0] is the outermost caller
  uint64_t count = 0;               // samples (or any weight: bytes, nanoseconds)
};

// The sample for a stack as stack() and ustack() record it: leaf first,
// each frame as printed ("vmlinux`do_sys_openat2+0x7c"). The offsets
// are dropped so that every call from one function merges into one frame,
// as flame graphs show functions, not instructions.
StackSample fromDTraceStack(std::span<const std::string> leafFirstFrames, uint64_t count);

// "module`function+0x1f" without its "+0x1f"; anything else as it is.
std::string_view withoutOffset(std::string_view frame);

}  // namespace dtrace::print
