#include "output/stack_samples.h"

#include <algorithm>
#include <map>

#include "print/printf.h"
#include "print/stack.h"

namespace dtrace::output {
namespace {

bool isStackKind(ir::DataKind k) {
  return k == ir::DataKind::KernelStack || k == ir::DataKind::UserStack;
}

// The frames of a stack key as DTrace prints them, leaf first as it
// records them.
std::vector<std::string> frameNames(const ir::Field& f, const uint8_t* key,
                                    const print::SymbolContext& symbols) {
  std::vector<std::string> frames;
  for (const print::NamedAddress& frame : print::stackFrames(f, key, symbols)) {
    frames.push_back(frame.text());
  }
  return frames;
}

// A key that is not a stack, as one frame.
std::string keyText(const ir::Field& f, const uint8_t* key, const print::SymbolContext& symbols) {
  const uint8_t* p = key + f.offset;
  if (ir::isCodeAddressKind(f.kind)) {  // sym(), mod(), ... as they print
    return print::symbolFieldText(f, print::symbolFieldAddress(f, key, symbols));
  }
  switch (f.kind) {
    case ir::DataKind::String:
      return std::string(print::readString(p, f.size));
    case ir::DataKind::Signed:
      return std::to_string(print::readSigned(p, f.size));
    default:
      return std::to_string(print::readUnsigned(p, f.size));
  }
}

}  // namespace

bool hasStackKey(const ir::Aggregation& agg) {
  return std::any_of(agg.keys.begin(), agg.keys.end(),
                     [](const ir::Field& f) { return isStackKind(f.kind); });
}

bool folds(const ir::Aggregation& agg) {
  return agg.info().display == ir::AggDisplay::Scalar ||
         agg.info().display == ir::AggDisplay::Average;
}

std::vector<print::StackSample> tableSamples(const consume::AggregationTable& table, size_t column,
                                             uint64_t normal, const print::SymbolContext& symbols) {
  const ir::Aggregation& keyed = table.aggregation(0);
  const ir::Aggregation& agg = table.aggregation(column);
  std::vector<print::StackSample> samples;
  if (!folds(agg)) return samples;
  // Stacks that differ only in offsets within a function are one stack
  // once offsets are dropped: their weights add, in first-seen order.
  std::map<std::vector<std::string>, size_t> sampleOf;
  for (size_t row = 0; row < table.rows(); row++) {
    const int64_t value = ir::aggregationScalar(agg, table.value(row, column)) /
                          static_cast<int64_t>(normal ? normal : 1);
    if (value <= 0) continue;  // no width to draw
    print::StackSample sample;
    std::vector<std::string> kernel;
    for (const ir::Field& f : keyed.keys) {
      if (!isStackKind(f.kind)) {
        sample.frames.push_back(keyText(f, table.key(row), symbols));
        continue;
      }
      const std::vector<std::string> leafFirst = frameNames(f, table.key(row), symbols);
      std::vector<std::string> rootFirst = print::fromDTraceStack(leafFirst, 0).frames;
      // The thread entered the kernel from its user frames: those first.
      auto& into = f.kind == ir::DataKind::KernelStack ? kernel : sample.frames;
      into.insert(into.end(), rootFirst.begin(), rootFirst.end());
    }
    sample.frames.insert(sample.frames.end(), kernel.begin(), kernel.end());
    sample.count = static_cast<uint64_t>(value);
    auto [it, fresh] = sampleOf.try_emplace(sample.frames, samples.size());
    if (fresh) {
      samples.push_back(std::move(sample));
    } else {
      samples[it->second].count += sample.count;
    }
  }
  return samples;
}

}  // namespace dtrace::output
