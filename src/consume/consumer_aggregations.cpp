// The actions on aggregations, carried out by the consumer in the order of
// the records that ask for them: printa() (one aggregation, or several
// joined on their keys, in the default layout or a format), clear(),
// trunc(), normalize(), denormalize() and setopt(); and the aggregations
// printed when tracing ends.
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "consume/consumer.h"
#include "consume/folded_output.h"
#include "consume/json_output.h"
#include "consume/messages.h"
#include "print/aggregation.h"
#include "print/flamegraph.h"
#include "print/folded.h"
#include "print/json.h"
#include "print/printf.h"

namespace dtrace::consume {

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

}  // namespace

print::BarStyle Consumer::barStyle(bool packed) const {
  print::BarStyle style;
  if (!options_) return style;
  if (options_->isSet("aggzoom")) style.scale = print::BarScale::Largest;
  const std::string encoding = options_->text("encoding");
  style.utf8 = encoding == "utf8" || (encoding.empty() && packed && utf8Terminal());
  return style;
}

SortOptions Consumer::sortOptions() const {
  return options_ ? SortOptions::from(*options_) : SortOptions{};
}

Result<std::unique_ptr<MergedAggregation>> Consumer::merged(const ir::Aggregation& agg) {
  auto data = aggregations_->snapshot(agg, options_ && options_->isSet("aggpercpu"));
  if (!data) return data.error();
  snapshots_.push_back(std::move(*data));
  return std::make_unique<MergedAggregation>(snapshots_.back());
}

Result<void> Consumer::aggregationAction(const ir::Ecb& ecb, const ir::Action& action,
                                         const uint8_t* payload) {
  auto number = [&](size_t i) {
    const ir::Field& f = action.fields.at(i);
    return f.kind == ir::DataKind::Unsigned
               ? static_cast<int64_t>(print::readUnsigned(payload + f.offset, f.size))
               : print::readSigned(payload + f.offset, f.size);
  };
  if (action.kind == ir::ActionKind::Setopt) {
    auto text = [&](size_t i) {
      const ir::Field& f = action.fields.at(i);
      return std::string(print::readString(payload + f.offset, f.size));
    };
    // As dt_consume.c has it: setopt("name") gives the value "1"; an
    // empty value is passed on (it unsets a run-time switch).
    setopt(ecb, text(0), action.fields.size() > 1 ? text(1) : "1");
    return {};
  }
  if (action.aggregations.empty()) return {};
  const uint32_t id = action.aggregations[0];
  if (id >= program_.aggregations.size()) return makeError("action names an unknown aggregation");
  const ir::Aggregation& agg = program_.aggregations[id];
  normals_.resize(program_.aggregations.size(), 1);
  switch (action.kind) {
    case ir::ActionKind::Printa:
      return printa(action);
    case ir::ActionKind::Clear:
      if (aggregations_) aggregations_->clear(agg);
      return {};
    case ir::ActionKind::Trunc:
      return trunc(agg, action.fields.empty() ? 0 : number(0));
    case ir::ActionKind::Normalize: {
      const int64_t n = number(0);
      // A zero divisor leaves the values as they are, as DTrace does.
      normals_[id] = n > 0 ? static_cast<uint64_t>(n) : 1;
      return {};
    }
    case ir::ActionKind::Denormalize:
      normals_[id] = 1;
      return {};
    default:
      return {};
  }
}

// The aggregations the snapshots hold: those printa() names, but not
// those clear() or trunc() change. The kernel's maps keep counting from
// the start (DTrace's per-CPU buffers hold what came since the last
// snapshot), so clearing the maps between two snapshots would lose what
// came since the last one; those are read when printed.
Result<void> Consumer::snapAggregations() {
  if (!aggregations_) return {};
  if (held_.empty()) {
    held_.resize(program_.aggregations.size());
    snapped_.assign(program_.aggregations.size(), false);
    std::vector<bool> changed(program_.aggregations.size(), false);
    for (const ir::Ecb& ecb : program_.ecbs) {
      for (const ir::Action& action : ecb.actions) {
        for (uint32_t id : action.aggregations) {
          if (id >= snapped_.size()) continue;
          if (action.kind == ir::ActionKind::Printa) snapped_[id] = true;
          if (action.kind == ir::ActionKind::Clear || action.kind == ir::ActionKind::Trunc) {
            changed[id] = true;
          }
        }
      }
    }
    for (size_t id = 0; id < snapped_.size(); id++) snapped_[id] = snapped_[id] && !changed[id];
  }
  const bool perCpu = options_ && options_->isSet("aggpercpu");
  for (const ir::Aggregation& agg : program_.aggregations) {
    if (!snapped_[agg.id]) continue;
    auto data = aggregations_->snapshot(agg, perCpu);
    if (!data) return data.error();
    held_[agg.id] = std::move(*data);
  }
  return {};
}

Result<void> Consumer::printa(const ir::Action& action) {
  if (!aggregations_) return {};
  snapshots_.clear();
  std::vector<std::unique_ptr<MergedAggregation>> columns;
  std::vector<const MergedAggregation*> views;
  for (uint32_t id : action.aggregations) {
    // The last snapshot (dt_print_aggs walks dtrace_aggregate_snap's).
    if (id < held_.size() && held_[id]) {
      columns.push_back(std::make_unique<MergedAggregation>(*held_[id]));
      views.push_back(columns.back().get());
      continue;
    }
    auto m = merged(program_.aggregations.at(id));
    if (!m) return m.error();
    views.push_back(m->get());
    columns.push_back(std::move(*m));
  }
  // An aggregation is printed (and left out at the end) only if this
  // printa() printed an entry of its own: illumos flags the description of
  // each entry it prints (dt_print_aggs, dt_fprinta), so an empty printa()
  // flags nothing.
  printed_.resize(program_.aggregations.size(), false);
  AggregationTable table(views);
  for (size_t column = 0; column < views.size(); column++) {
    if (table.rows() > 0 && views[column]->size() > 0) printed_[action.aggregations[column]] = true;
  }
  table.sort(sortOptions());
  const ir::PrintfFormat* format = nullptr;
  if (action.hasFormat) {
    if (action.formatIndex >= formats_.size() || !formats_[action.formatIndex]) {
      return makeError("printa( ) record has no valid format");
    }
    format = &*formats_[action.formatIndex];
  }
  switch (format_) {
    case OutputFormat::Json:
      return printJson(table, format);
    case OutputFormat::Folded:
      return printFolded(table);
    case OutputFormat::Text:
      break;
  }
  // The default layout starts with an empty line.
  if (!format) {
    if (auto r = write("\n"); !r) return r;
  }
  return printTable(table, format, output());
}

// In JSON mode a printa() adds, for each aggregation, its entries to the
// record's output, and the text its format gives.
Result<void> Consumer::printJson(const AggregationTable& table, const ir::PrintfFormat* format) {
  if (!json_) return {};
  for (size_t column = 0; column < table.columns(); column++) {
    json_->beginObject();
    writeAggregationMembers(*json_, table, column, normal(table.aggregation(column).id), symbols_);
    if (format && column == 0) {
      std::string text;
      auto r = printTable(table, format, [&](const std::string& piece) -> Result<void> {
        text += piece;
        return {};
      });
      if (!r) return r;
      json_->key("message").string(text);
    }
    json_->endObject();
  }
  return {};
}

// In folded mode each aggregation of numbers prints one line per entry.
Result<void> Consumer::printFolded(const AggregationTable& table) {
  std::string text;
  for (size_t column = 0; column < table.columns(); column++) {
    const ir::Aggregation& agg = table.aggregation(column);
    text += print::foldedStacks(tableSamples(table, column, normal(agg.id), symbols_));
  }
  return write(text);
}

Result<void> Consumer::printTable(const AggregationTable& table, const ir::PrintfFormat* format,
                                  const TextSink& sink) {
  std::string text;
  const ir::Aggregation& keyed = table.aggregation(0);
  const bool perCpu = table.columns() == 1 && options_ && options_->isSet("aggpercpu");
  const print::BarStyle style = barStyle(false);  // looked up once, not per row
  // -x agghist: a count() or sum() printed alone is a histogram of its keys.
  std::optional<print::Histogram> histogram;
  if (!format && table.columns() == 1 && table.rows() > 0 && options_ &&
      options_->isSet("agghist") &&
      (keyed.func == ir::AggFunc::Count || keyed.func == ir::AggFunc::Sum)) {
    histogram.emplace(style);
    for (size_t row = 0; row < table.rows(); row++) histogram->add(table.value(row, 0)[0]);
    print::appendDistributionHeader(text, print::packedKeysWidth(keyed));
  }
  // -x aggpack: a quantize() or lquantize() printed alone, a line per key.
  std::optional<print::PackedDistributions> packed;
  if (!format && table.columns() == 1 && table.rows() > 0 && options_ &&
      options_->isSet("aggpack") &&
      (keyed.func == ir::AggFunc::Quantize || keyed.func == ir::AggFunc::Lquantize)) {
    packed.emplace(keyed, barStyle(true));
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
        print::appendFormattedAggregationValue(out, agg, table.value(row, column), normal(agg.id),
                                               c, stem, style);
      };
      auto r = print::appendPrintf(text, *format, keyed.keys, key, keyed.keySize, value, &symbols_);
      if (!r) return r;
    } else if (histogram) {
      print::appendAggregationKeys(text, keyed, key, &symbols_, true);
      histogram->appendBar(text, table.value(row, 0)[0], normal(keyed.id));
    } else if (packed) {
      print::appendAggregationKeys(text, keyed, key, &symbols_, true);
      packed->appendLine(text, table.value(row, 0));
    } else {
      print::appendAggregationKeys(text, keyed, key, &symbols_);
      for (size_t column = 0; column < table.columns(); column++) {
        const ir::Aggregation& agg = table.aggregation(column);
        print::appendAggregationValue(text, agg, table.value(row, column), normal(agg.id), style);
      }
      if (perCpu) appendPerCpu(text, table.data(0), table.snapshotIndex(row), style);
      text += '\n';
    }
    if (text.size() >= kWriteChunk) {
      if (auto r = sink(text); !r) return r;
      text.clear();
    }
  }
  return sink(text);
}

// A CPU that never fired (or fired only before a clear()) shows what its
// buffer starts from: the largest value for min(), the smallest for max().
void Consumer::appendPerCpu(std::string& out, const AggregationData& data, size_t index,
                            print::BarStyle style) {
  if (!data.perCpu()) return;
  const ir::Aggregation& agg = *data.aggregation;
  std::vector<int64_t> initial(agg.dataWords(), 0);
  if (agg.info().merge == ir::AggMerge::Min) initial[0] = INT64_MAX;
  if (agg.info().merge == ir::AggMerge::Max) initial[0] = INT64_MIN;
  for (int cpu = 0; cpu < data.ncpus(); cpu++) {
    const bool fired = data.slot(index, cpu) == CpuSlot::Current;
    out += "\n    [CPU " + std::to_string(cpu) + "]";
    print::appendAggregationValue(out, agg, fired ? data.data(index, cpu) : initial.data(),
                                  normal(agg.id), style);
  }
}

// trunc(@a, n): keeps the n largest values (n < 0: the -n smallest), or
// none without a count, as DTrace's walk by value removes the rest.
Result<void> Consumer::trunc(const ir::Aggregation& agg, int64_t keep) {
  if (!aggregations_) return {};
  snapshots_.clear();
  auto m = merged(agg);
  if (!m) return m.error();
  AggregationTable table({m->get()});
  SortOptions byValue;
  byValue.reverse = keep > 0;  // largest first
  table.sort(byValue);
  const size_t kept = static_cast<size_t>(keep < 0 ? -keep : keep);
  std::vector<const uint8_t*> removed;
  for (size_t row = kept; row < table.rows(); row++) removed.push_back(table.key(row));
  aggregations_->remove(agg, removed);
  return {};
}

// setopt(): as -x name=value would, from here on; a refusal is reported
// as DTrace reports a library error, and tracing goes on.
void Consumer::setopt(const ir::Ecb& ecb, const std::string& name, const std::string& value) {
  if (!options_) return;
  // dtrace_setopt() while tracing: a run-time option that is not dynamic
  // fails (EDT_ACTIVE), and tracing goes on.
  auto r = options_->setWhileTracing(name, value);
  if (!r) {
    std::fprintf(err_,
                 "dtrace: error on enabled probe ID %u (ID %u: %s:%s:%s:%s): couldn't set option "
                 "\"%s\" to \"%s\": %s\n",
                 ecb.epid, ecb.probeId, ecb.provider.c_str(), ecb.module.c_str(),
                 ecb.function.c_str(), ecb.name.c_str(), name.c_str(), value.c_str(),
                 r.error().message.c_str());
    return;
  }
  if (name == "quiet") quiet_ = options_->isSet("quiet");
  if (name == "flowindent") setFlowIndent(options_->isSet("flowindent"));
}

Result<void> Consumer::printFinal() {
  (void)processPendingReturn(std::nullopt);
  // dtrace(1M)'s empty line: text only, where it would break the format.
  if (format_ == OutputFormat::Text) {
    if (auto r = write("\n"); !r) return r;
  }
  if (!aggregations_) return {};
  printed_.resize(program_.aggregations.size(), false);
  normals_.resize(program_.aggregations.size(), 1);
  std::vector<const ir::Aggregation*> unprinted;
  for (const ir::Aggregation& agg : program_.aggregations) {
    if (!printed_[agg.id]) unprinted.push_back(&agg);
  }
  // Sorting by aggregation first, aggsortrev reverses their order too.
  const SortOptions order = sortOptions();
  if (order.reverse) std::reverse(unprinted.begin(), unprinted.end());
  for (const ir::Aggregation* agg : unprinted) {
    snapshots_.clear();
    auto m = merged(*agg);
    if (!m) return m.error();
    AggregationTable table({m->get()});
    table.sort(order);
    Result<void> r;
    if (format_ == OutputFormat::Json) {
      if (table.rows() == 0) continue;
      std::string line;
      appendAggregationLine(line, table, 0, normal(agg->id), symbols_);
      r = write(line);
    } else if (format_ == OutputFormat::Folded) {
      r = printFolded(table);
    } else {
      r = printTable(table, nullptr, output());
    }
    if (!r) return r;
  }
  return {};
}

void Consumer::reportDrops(std::string_view kind, int cpu, uint64_t count, uint64_t total) {
  std::string message;
  const char* tag;  // DTrace's name for the kind of drop (dtrace_dropkind_t)
  if (kind == "principal") {
    message = formatDrops(count, cpu);
    tag = "DTRACEDROP_PRINCIPAL";
  } else if (kind == "aggregation") {
    message = formatAggregationDrops(count, cpu);
    tag = "DTRACEDROP_AGGREGATION";
  } else if (kind == "speculation") {
    message = formatSpeculativeDrops(count);
    tag = "DTRACEDROP_SPEC";
  } else if (kind == "speculation-unavailable") {
    message = formatFailedSpeculations(count);
    tag = "DTRACEDROP_SPECUNAVAIL";
  } else {
    message = formatDynvarDrops(count);
    tag = "DTRACEDROP_DYNAMIC";
  }
  // -x droptags: each message names its kind, as -x errtags names errors.
  constexpr std::string_view kPrefix = "dtrace: ";
  if (options_ && options_->flag("droptags") && message.starts_with(kPrefix)) {
    message.insert(kPrefix.size(), "[" + std::string(tag) + "] ");
  }
  std::fprintf(err_, "%s\n", message.c_str());
  if (format_ == OutputFormat::Json) {
    std::string line;
    appendDropLine(line, kind, cpu, count, total, message);
    (void)write(line);
  }
}

Result<void> Consumer::writeFlameGraph(const std::string& path, const std::string& commandLine) {
  if (!aggregations_) return {};
  for (const ir::Aggregation& agg : program_.aggregations) {
    if (!hasStackKey(agg) || !folds(agg)) continue;
    snapshots_.clear();
    auto m = merged(agg);
    if (!m) return m.error();
    AggregationTable table({m->get()});
    print::FlameGraphOptions options;
    options.subtitle = (agg.name.empty() ? "@" : "@" + agg.name) + " from " + commandLine;
    if (agg.func != ir::AggFunc::Count) options.countName = agg.info().name;
    const std::string svg =
        print::renderFlameGraph(tableSamples(table, 0, normal(agg.id), symbols_), options);
    FILE* f = std::fopen(path.c_str(), "we");
    if (!f) return makeError("failed to write flame graph " + path + ": " + std::strerror(errno));
    const bool ok = std::fwrite(svg.data(), 1, svg.size(), f) == svg.size();
    if (std::fclose(f) != 0 || !ok) {
      return makeError("failed to write flame graph " + path + ": " + std::strerror(errno));
    }
    return {};
  }
  return makeError("no aggregation with stack() or ustack() keys for the flame graph " + path);
}

}  // namespace dtrace::consume
