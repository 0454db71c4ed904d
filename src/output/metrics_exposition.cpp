#include "output/metrics_exposition.h"

#include <algorithm>
#include <cstdio>

#include "print/printf.h"
#include "print/stack.h"

namespace dtrace::output {
namespace {

bool isStackKind(ir::DataKind k) {
  return k == ir::DataKind::KernelStack || k == ir::DataKind::UserStack;
}

// A bucket's `le`: the largest integer it holds, "+Inf" for the last. A
// negative bucket of quantize() or llquantize() is named by its value
// nearest zero, which it holds (-4 holds -7 to -4); the others hold up to
// the next bucket's value, less one. lquantize()'s first bucket holds
// what is below its base, the others `step` values each.
std::string upperBound(const ir::Aggregation& agg, uint32_t bucket) {
  if (bucket + 1 >= agg.dataWords()) return "+Inf";
  if (agg.func == ir::AggFunc::Lquantize) {
    return std::to_string(agg.params.base + static_cast<int64_t>(bucket) * agg.params.step - 1);
  }
  const int64_t value = ir::distributionBucketValue(agg, bucket);
  return std::to_string(value < 0 ? value : ir::distributionBucketValue(agg, bucket + 1) - 1);
}

std::string withLabel(const std::string& labels, const std::string& name,
                      const std::string& value) {
  std::string out = labels;
  if (!out.empty()) out += ',';
  return out + name + "=\"" + value + '"';
}

std::string typeName(MetricType t) {
  switch (t) {
    case MetricType::Counter:
      return "counter";
    case MetricType::Histogram:
      return "histogram";
    default:
      return "gauge";
  }
}

std::string formatDouble(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

}  // namespace

std::string sanitizeMetricName(const std::string& name) {
  std::string out;
  for (char c : name) {
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
    const bool digit = c >= '0' && c <= '9';
    out += (letter || (digit && !out.empty())) ? c : '_';
  }
  return out;
}

std::string escapeLabelValue(std::string_view value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

Result<MetricLabelNames> parseMetricLabelNames(const std::string& text) {
  MetricLabelNames names;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find(';', at);
    if (end == std::string::npos) end = text.size();
    const std::string group = text.substr(at, end - at);
    at = end + 1;
    if (group.empty()) continue;
    const size_t colon = group.find(':');
    std::string aggregation = group.substr(0, colon);
    if (!aggregation.empty() && aggregation[0] == '@') aggregation.erase(0, 1);
    if (colon == std::string::npos || names.count(aggregation)) {
      return makeError("metricslabels: expected @NAME:LABEL,... once per aggregation, not '" +
                       group + "'");
    }
    std::vector<std::string>& labels = names[aggregation];
    size_t from = colon + 1;
    for (;;) {
      const size_t comma = std::min(group.find(',', from), group.size());
      const std::string label = group.substr(from, comma - from);
      const bool valid = !label.empty() && sanitizeMetricName(label) == label &&
                         label.find(':') == std::string::npos && !label.starts_with("__") &&
                         label != "le";
      if (!valid) {
        return makeError("metricslabels: '" + label + "' is not a label name for @" + aggregation +
                         " ([a-zA-Z_][a-zA-Z0-9_]*, not le, not __ first)");
      }
      labels.push_back(label);
      if (comma == group.size()) break;
      from = comma + 1;
    }
  }
  return names;
}

const char* const kHealthFamilies[4] = {"dtrace_drops", "dtrace_errors", "dtrace_buffer_switches",
                                        "dtrace_metrics_dropped_series"};

std::optional<std::string> whyNotAMetric(const ir::Aggregation& agg) {
  if (std::any_of(agg.keys.begin(), agg.keys.end(),
                  [](const ir::Field& f) { return isStackKind(f.kind); })) {
    return "a stack() or ustack() key would make every stack a label";
  }
  const std::string family = "dtrace_" + sanitizeMetricName(agg.name.empty() ? "agg" : agg.name);
  for (const char* own : kHealthFamilies) {
    if (family == own) return family + " is one of dtrace's own metrics";
  }
  return std::nullopt;
}

void MetricsBuilder::begin() {
  families_.clear();
  series_ = 0;
  dropped_ = 0;
}

bool MetricsBuilder::room() {
  if (series_ >= limit_) {
    dropped_++;
    return false;
  }
  series_++;
  return true;
}

// Each key as printa() shows it (a symbol by name), labelled as
// -x metricslabels names it, else key0, key1, ...
std::string MetricsBuilder::labelsOf(const ir::Aggregation& agg, const uint8_t* key) const {
  auto named = labelNames_.find(agg.name);
  const std::vector<std::string> none;
  const std::vector<std::string>& names = named == labelNames_.end() ? none : named->second;
  std::string labels;
  for (size_t i = 0; i < agg.keys.size(); i++) {
    const ir::Field& f = agg.keys[i];
    const uint8_t* p = key + f.offset;
    std::string text;
    if (ir::isCodeAddressKind(f.kind)) {
      text = print::symbolFieldText(f, print::symbolFieldAddress(f, key, symbols_));
    } else if (f.kind == ir::DataKind::String) {
      text = std::string(print::readString(p, f.size));
    } else if (f.size == 1 || f.size == 2 || f.size == 4 || f.size == 8) {
      text = f.kind == ir::DataKind::Signed ? std::to_string(print::readSigned(p, f.size))
                                            : std::to_string(print::readUnsigned(p, f.size));
    } else {
      static const char kDigits[] = "0123456789abcdef";
      for (uint32_t b = 0; b < f.size; b++) {
        text += kDigits[p[b] >> 4];
        text += kDigits[p[b] & 15];
      }
    }
    labels = withLabel(labels, i < names.size() ? names[i] : "key" + std::to_string(i),
                       escapeLabelValue(text));
  }
  return labels;
}

void MetricsBuilder::add(const consume::AggregationPrint& request) {
  const consume::AggregationTable& table = request.table;
  const ir::Aggregation& agg = table.aggregation(0);
  MetricFamily family;
  family.name = "dtrace_" + sanitizeMetricName(agg.name.empty() ? "agg" : agg.name);
  family.help = "@" + agg.name + " = " + agg.info().name + "()";
  switch (agg.info().display) {
    case ir::AggDisplay::Scalar:
      family.type = agg.func == ir::AggFunc::Count || agg.func == ir::AggFunc::Sum
                        ? MetricType::Counter
                        : MetricType::Gauge;
      break;
    case ir::AggDisplay::Average:
    case ir::AggDisplay::StandardDeviation:
      family.type = MetricType::Gauge;
      break;
    default:
      family.type = MetricType::Histogram;
      break;
  }
  const std::string suffix = family.type == MetricType::Counter ? "_total" : "";
  // Series in the order of their labels, the same from scrape to scrape.
  std::vector<std::pair<std::string, size_t>> rows;
  for (size_t row = 0; row < table.rows(); row++)
    rows.emplace_back(labelsOf(agg, table.key(row)), row);
  std::sort(rows.begin(), rows.end());
  for (const auto& [labels, row] : rows) {
    const int64_t* value = table.value(row, 0);
    switch (agg.info().display) {
      case ir::AggDisplay::Scalar:
        if (room()) family.samples.push_back({suffix, labels, std::to_string(value[0])});
        break;
      case ir::AggDisplay::Average:
        if (room()) {
          const double avg = value[0] ? static_cast<double>(value[1]) / value[0] : 0.0;
          family.samples.push_back({"", labels, formatDouble(avg)});
        }
        break;
      case ir::AggDisplay::StandardDeviation:
        if (room()) {
          family.samples.push_back(
              {"", labels, std::to_string(value[0] ? ir::standardDeviation(value) : 0)});
        }
        break;
      default:
        addHistogram(family, agg, labels, value);
        break;
    }
  }
  families_.push_back(std::move(family));
}

// Cumulative buckets over the family's bucket range, "+Inf", "_sum" (the
// values counted, which dtrace keeps beside each bucket's count) and
// "_count".
void MetricsBuilder::addHistogram(MetricFamily& family, const ir::Aggregation& agg,
                                  const std::string& labels, const int64_t* value) {
  const ir::SparseDistribution buckets(value);
  const uint32_t last = agg.dataWords() - 1;
  auto [range, fresh] = bucketRange_.try_emplace(agg.id, last, 0);
  for (uint32_t i = 0; i < buckets.size(); i++) {
    range->second.first = std::min(range->second.first, buckets.bucket(i));
    range->second.second = std::max(range->second.second, buckets.bucket(i));
  }
  (void)fresh;
  int64_t cumulative = 0;
  uint32_t used = 0;
  for (uint32_t b = range->second.first; b <= range->second.second && b < last; b++) {
    while (used < buckets.size() && buckets.bucket(used) <= b) cumulative += buckets.count(used++);
    if (room()) {
      family.samples.push_back(
          {"_bucket", withLabel(labels, "le", upperBound(agg, b)), std::to_string(cumulative)});
    }
  }
  while (used < buckets.size()) cumulative += buckets.count(used++);
  if (room()) {
    family.samples.push_back(
        {"_bucket", withLabel(labels, "le", "+Inf"), std::to_string(cumulative)});
  }
  if (room()) family.samples.push_back({"_sum", labels, std::to_string(buckets.sum())});
  if (room()) family.samples.push_back({"_count", labels, std::to_string(cumulative)});
}

void appendFamilies(std::string& out, const std::vector<MetricFamily>& families, bool openMetrics) {
  for (const MetricFamily& f : families) {
    // The text format names a counter's family by its samples' name;
    // OpenMetrics by the name without "_total".
    const std::string name =
        f.type == MetricType::Counter && !openMetrics ? f.name + "_total" : f.name;
    out += "# HELP " + name + ' ' + f.help + '\n';
    out += "# TYPE " + name + ' ' + typeName(f.type) + '\n';
    for (const MetricSample& s : f.samples) {
      out += f.name + s.suffix;
      if (!s.labels.empty()) out += '{' + s.labels + '}';
      out += ' ' + s.value + '\n';
    }
  }
}

void endExposition(std::string& out, bool openMetrics) {
  if (openMetrics) out += "# EOF\n";
}

}  // namespace dtrace::output
