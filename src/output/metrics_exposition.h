// Aggregations as Prometheus metric families, and the families in the
// Prometheus text exposition format (0.0.4) or OpenMetrics 1.0. A family
// is one aggregation: count() and sum() counters, min(), max(), avg() and
// stddev() gauges, quantize(), lquantize() and llquantize() histograms;
// the tuple's keys are its labels.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "consume/sink.h"
#include "util/result.h"

namespace dtrace::output {

enum class MetricType : uint8_t { Counter, Gauge, Histogram };

// One sample line: the family's name with `suffix` ("_total", "_bucket",
// "_count" or ""), its labels as written between braces, and its value.
struct MetricSample {
  std::string suffix;
  std::string labels;
  std::string value;
};

struct MetricFamily {
  std::string name;  // sanitised, without a counter's "_total"
  MetricType type = MetricType::Gauge;
  std::string help;
  std::vector<MetricSample> samples;
};

// A metric name made of Prometheus's characters ([a-zA-Z_:][a-zA-Z0-9_:]*),
// others replaced by '_'.
std::string sanitizeMetricName(const std::string& name);
// A label value escaped for the exposition formats: backslash, double
// quote and newline.
std::string escapeLabelValue(std::string_view value);

// -x metricslabels: the label names of aggregations' keys, as
// "lat:comm,syscall;calls:comm" ('@' before a name is optional). A key
// without a name given is key0, key1, ...
using MetricLabelNames = std::map<std::string, std::vector<std::string>>;
Result<MetricLabelNames> parseMetricLabelNames(const std::string& text);

// Why an aggregation cannot be a metric, or nullopt when it can: a
// stack() or ustack() key would make a label of every stack (unbounded
// cardinality, unreadable labels), and a family may not take the name of
// one of dtrace's own (dtrace_drops, dtrace_errors, ...).
std::optional<std::string> whyNotAMetric(const ir::Aggregation& agg);
// dtrace's own families, as their names are taken.
extern const char* const kHealthFamilies[4];

// Turns aggregation tables into families, keeping at most `seriesLimit`
// sample lines in all; droppedSeries() counts those the snapshot left out. A
// histogram's buckets run over every bucket any of its series has used
// since the first snapshot, so that its `le` set only grows.
class MetricsBuilder {
 public:
  MetricsBuilder(uint64_t seriesLimit, MetricLabelNames labelNames,
                 const print::SymbolContext& symbols)
      : limit_(seriesLimit), labelNames_(std::move(labelNames)), symbols_(symbols) {}

  // Starts a new snapshot: families() empties, the bucket ranges stay.
  void begin();
  void add(const consume::AggregationPrint& request);
  std::vector<MetricFamily>& families() { return families_; }
  uint64_t droppedSeries() const { return dropped_; }

 private:
  bool room();  // counts one more series, or a dropped one
  std::string labelsOf(const ir::Aggregation& agg, const uint8_t* key) const;
  void addHistogram(MetricFamily& family, const ir::Aggregation& agg, const std::string& labels,
                    const int64_t* value);

  uint64_t limit_;
  MetricLabelNames labelNames_;
  const print::SymbolContext& symbols_;
  uint64_t series_ = 0;
  uint64_t dropped_ = 0;
  std::vector<MetricFamily> families_;
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> bucketRange_;  // by aggregation id
};

// Appends the families to a scrape's body; OpenMetrics ends the body with
// "# EOF" (endExposition) after the last family.
void appendFamilies(std::string& out, const std::vector<MetricFamily>& families, bool openMetrics);
void endExposition(std::string& out, bool openMetrics);

}  // namespace dtrace::output
