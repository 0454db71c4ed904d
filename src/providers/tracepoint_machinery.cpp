#include "providers/tracepoint_machinery.h"

#include "sym/kernel_symbols.h"

namespace dtrace::providers {

namespace {

bool functionRange(const std::string& name, AddressRange& range) {
  std::optional<sym::KernelSymbol> s = sym::KernelSymbols::get().find(name);
  if (!s) return false;
  range = {s->address, s->end};
  return true;
}

}  // namespace

std::vector<AddressRange> tracepointMachinery(const std::string& tracepoint) {
  AddressRange textStart, textEnd, stub;
  if (!functionRange("_stext", textStart) || !functionRange("_etext", textEnd) ||
      !functionRange("__bpf_trace_" + tracepoint, stub)) {
    return {};
  }
  std::vector<AddressRange> ranges = {{0, textStart.start}, {textEnd.start, ~0ull}, stub};
  AddressRange range;
  if (functionRange("__traceiter_" + tracepoint, range)) ranges.push_back(range);
  // bpf_trace_run1..12 are neighbours: one range from the first to past the last.
  AddressRange first, last;
  if (functionRange("bpf_trace_run1", first) && functionRange("bpf_trace_run12", last) &&
      last.end - first.start < 0x10000) {
    ranges.push_back({first.start, last.end});
  } else {
    for (int n = 1; n <= 12; n++) {
      if (functionRange("bpf_trace_run" + std::to_string(n), range)) ranges.push_back(range);
    }
  }
  return ranges;
}

}  // namespace dtrace::providers
