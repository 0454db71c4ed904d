#include "print/aggregation.h"

#include "print/appendf.h"
#include "print/distribution.h"
#include "print/printf.h"
#include "print/trace.h"

namespace dtrace::print {
namespace {

// Strings sit left-justified in 50 columns (right-justified in 16 when
// packed); integers right-justified in a width that depends on their size;
// stacks and symbols as records print them.
void appendKeyDatum(std::string& out, const ir::Field& f, const uint8_t* key,
                    const SymbolContext& symbols, bool packed) {
  if (ir::isCodeAddressKind(f.kind)) {
    appendCodeAddress(out, f, key, symbols);
    return;
  }
  const uint8_t* p = key + f.offset;
  const int bytesWidth = packed ? 16 : -50;
  if (f.kind == ir::DataKind::String) {
    appendBytes(out, p, f.size, bytesWidth, false, false);
    return;
  }
  switch (f.size) {
    case 8:
      out += ' ';
      appendRightJustified(out, readSigned(p, 8), 16);
      break;
    case 4:
      appendf(out, " %8d", static_cast<int>(readSigned(p, 4)));
      break;
    case 2:
      appendf(out, " %5d", static_cast<int>(readUnsigned(p, 2)));
      break;
    case 1:
      appendf(out, " %3d", static_cast<int>(readUnsigned(p, 1)));
      break;
    default:
      appendBytes(out, p, f.size, bytesWidth, false, false);
      break;
  }
}

}  // namespace

void appendAggregationKeys(std::string& out, const ir::Aggregation& agg, const uint8_t* key,
                           const SymbolContext* symbols, bool packed) {
  const SymbolContext noSymbols;
  for (const ir::Field& f : agg.keys) {
    appendKeyDatum(out, f, key, symbols ? *symbols : noSymbols, packed);
  }
}

size_t packedKeysWidth(const ir::Aggregation& agg) {
  size_t width = 0;
  for (const ir::Field& f : agg.keys) {
    const bool integer = f.kind != ir::DataKind::String && !ir::isCodeAddressKind(f.kind);
    width += 1 + (integer && f.size == 1   ? 3
                  : integer && f.size == 2 ? 5
                  : integer && f.size == 4 ? 8
                                           : 16);
  }
  return width;
}

void appendAggregationValue(std::string& out, const ir::Aggregation& agg, const int64_t* data,
                            uint64_t normal, BarStyle style) {
  if (normal == 0) normal = 1;
  const auto divisor = static_cast<int64_t>(normal);
  switch (agg.info().display) {
    case ir::AggDisplay::Scalar:
      out += ' ';
      appendRightJustified(out, data[0] / divisor, 16);
      break;
    case ir::AggDisplay::Average:
      out += ' ';
      appendRightJustified(out, data[0] ? data[1] / divisor / data[0] : 0, 16);
      break;
    case ir::AggDisplay::StandardDeviation:
      appendf(out, " %16llu",
              static_cast<unsigned long long>(data[0] ? ir::standardDeviation(data, normal) : 0));
      break;
    default:
      appendDistribution(out, agg, data, normal, style);
      break;
  }
}

void appendFormattedAggregationValue(std::string& out, const ir::Aggregation& agg,
                                     const int64_t* data, uint64_t normal,
                                     const ir::PrintfConversion& conversion,
                                     const std::string& stem, BarStyle style) {
  if (normal == 0) normal = 1;
  const auto divisor = static_cast<int64_t>(normal);
  int64_t value = 0;
  switch (agg.info().display) {
    case ir::AggDisplay::Scalar:
      value = data[0] / divisor;
      break;
    case ir::AggDisplay::Average:
      value = data[0] ? data[1] / divisor / data[0] : 0;
      break;
    case ir::AggDisplay::StandardDeviation:
      value = static_cast<int64_t>(data[0] ? ir::standardDeviation(data, normal) : 0);
      break;
    default:
      appendDistribution(out, agg, data, normal, style);
      return;
  }
  appendIntegerConversion(out, conversion, stem, value);
}

void appendAggregationLine(std::string& out, const ir::Aggregation& agg, const uint8_t* key,
                           const int64_t* data, uint64_t normal, const SymbolContext* symbols) {
  appendAggregationKeys(out, agg, key, symbols);
  appendAggregationValue(out, agg, data, normal);
  out += '\n';
}

}  // namespace dtrace::print
