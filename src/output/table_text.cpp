#include "output/table_text.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include "print/aggregation.h"
#include "print/distribution.h"
#include "print/printf.h"

namespace dtrace::output {
namespace {

// Whether aggpack may draw with UTF-8 block characters when -x encoding
// does not say: as libdtrace decides, unless the terminal is one known not
// to show them.
bool utf8Terminal() {
  const char* term = std::getenv("TERM");
  return term == nullptr || (std::strcmp(term, "sun") != 0 && std::strcmp(term, "sun-color") != 0 &&
                             std::strcmp(term, "dumb") != 0);
}

// Large tables are written in pieces of about this size.
constexpr size_t kWriteChunk = 64 * 1024;
// How many rows ahead of the one printed its value is fetched.
constexpr size_t kFetchAhead = 8;

// -x aggzoom and -x encoding (settable at run time, as DTrace's dynamic
// options are). `packed`: for aggpack, whose default encoding follows
// the terminal.
print::BarStyle barStyle(const OptionTable* options, bool packed) {
  print::BarStyle style;
  if (!options) return style;
  if (options->isSet("aggzoom")) style.scale = print::BarScale::Largest;
  const std::string encoding = options->text("encoding");
  style.utf8 = encoding == "utf8" || (encoding.empty() && packed && utf8Terminal());
  return style;
}

// aggpercpu: after a row's value, the value on each CPU. A CPU that never
// fired (or fired only before a clear()) shows what its buffer starts
// from: the largest value for min(), the smallest for max().
void appendPerCpu(std::string& out, const consume::AggregationData& data, size_t index,
                  uint64_t normal, print::BarStyle style) {
  if (!data.perCpu()) return;
  const ir::Aggregation& agg = *data.aggregation;
  std::vector<int64_t> initial(agg.dataWords(), 0);
  if (agg.info().merge == ir::AggMerge::Min) initial[0] = INT64_MAX;
  if (agg.info().merge == ir::AggMerge::Max) initial[0] = INT64_MIN;
  for (int cpu = 0; cpu < data.ncpus(); cpu++) {
    const bool fired = data.slot(index, cpu) == consume::CpuSlot::Current;
    out += "\n    [CPU " + std::to_string(cpu) + "]";
    print::appendAggregationValue(out, agg, fired ? data.data(index, cpu) : initial.data(), normal,
                                  style);
  }
}

}  // namespace

Result<void> printTable(const consume::AggregationPrint& request,
                        const print::SymbolContext& symbols, const TextPieces& pieces) {
  const consume::AggregationTable& table = request.table;
  const ir::PrintfFormat* format = request.format;
  const OptionTable* options = request.options;
  std::string text;
  const ir::Aggregation& keyed = table.aggregation(0);
  const bool perCpu = table.columns() == 1 && options && options->isSet("aggpercpu");
  const print::BarStyle style = barStyle(options, false);  // looked up once, not per row
  // -x agghist: a count() or sum() printed alone is a histogram of its keys.
  std::optional<print::Histogram> histogram;
  if (!format && table.columns() == 1 && table.rows() > 0 && options && options->isSet("agghist") &&
      (keyed.func == ir::AggFunc::Count || keyed.func == ir::AggFunc::Sum)) {
    histogram.emplace(style);
    for (size_t row = 0; row < table.rows(); row++) histogram->add(table.value(row, 0)[0]);
    print::appendDistributionHeader(text, print::packedKeysWidth(keyed));
  }
  // -x aggpack: a quantize() or lquantize() printed alone, a line per key.
  std::optional<print::PackedDistributions> packed;
  if (!format && table.columns() == 1 && table.rows() > 0 && options && options->isSet("aggpack") &&
      (keyed.func == ir::AggFunc::Quantize || keyed.func == ir::AggFunc::Lquantize)) {
    packed.emplace(keyed, barStyle(options, true));
    for (size_t row = 0; row < table.rows(); row++) packed->add(table.value(row, 0));
    packed->appendHeader(text, print::packedKeysWidth(keyed));
  }
  for (size_t row = 0; row < table.rows(); row++) {
    // Sorted rows visit keys and values in no order: fetch ahead of the
    // formatting.
    if (row + kFetchAhead < table.rows()) {
      __builtin_prefetch(table.key(row + kFetchAhead));
      for (size_t column = 0; column < table.columns(); column++) {
        __builtin_prefetch(table.value(row + kFetchAhead, column));
      }
    }
    const uint8_t* key = table.key(row);
    if (format) {
      // %@ conversions past the last aggregation show the last one again.
      auto value = [&](std::string& out, const ir::PrintfConversion& c, const std::string& stem,
                       size_t index) {
        const size_t column = std::min(index, table.columns() - 1);
        const ir::Aggregation& agg = table.aggregation(column);
        print::appendFormattedAggregationValue(out, agg, table.value(row, column),
                                               request.normal(agg.id), c, stem, style);
      };
      auto r = print::appendPrintf(text, *format, keyed.keys, key, keyed.keySize, value, &symbols);
      if (!r) return r;
    } else if (histogram) {
      print::appendAggregationKeys(text, keyed, key, &symbols, true);
      histogram->appendBar(text, table.value(row, 0)[0], request.normal(keyed.id));
    } else if (packed) {
      print::appendAggregationKeys(text, keyed, key, &symbols, true);
      packed->appendLine(text, table.value(row, 0));
    } else {
      print::appendAggregationKeys(text, keyed, key, &symbols);
      for (size_t column = 0; column < table.columns(); column++) {
        const ir::Aggregation& agg = table.aggregation(column);
        print::appendAggregationValue(text, agg, table.value(row, column), request.normal(agg.id),
                                      style);
      }
      if (perCpu) {
        appendPerCpu(text, table.data(0), table.snapshotIndex(row), request.normal(keyed.id),
                     style);
      }
      text += '\n';
    }
    if (text.size() >= kWriteChunk) {
      if (auto r = pieces(text); !r) return r;
      text.clear();
    }
  }
  return pieces(text);
}

}  // namespace dtrace::output
