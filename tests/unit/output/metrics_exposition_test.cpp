// Aggregations as Prometheus metrics: names, label values, -x
// metricslabels, and the two exposition formats.
#include "output/metrics_exposition.h"

#include <gtest/gtest.h>

namespace dtrace::output {
namespace {

TEST(MetricsExposition, NamesKeepOnlyPrometheusCharacters) {
  EXPECT_EQ(sanitizeMetricName("syscalls"), "syscalls");
  EXPECT_EQ(sanitizeMetricName("a.b-c"), "a_b_c");
  EXPECT_EQ(sanitizeMetricName("9lives"), "_lives");
  EXPECT_EQ(sanitizeMetricName("x9:y"), "x9:y");
}

TEST(MetricsExposition, LabelValuesEscapeBackslashQuoteAndNewline) {
  EXPECT_EQ(escapeLabelValue("plain"), "plain");
  EXPECT_EQ(escapeLabelValue("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
}

TEST(MetricsExposition, LabelNamesPerAggregation) {
  auto names = parseMetricLabelNames("@lat:comm,syscall;calls:comm");
  ASSERT_TRUE(names.ok());
  EXPECT_EQ((*names)["lat"], (std::vector<std::string>{"comm", "syscall"}));
  EXPECT_EQ((*names)["calls"], (std::vector<std::string>{"comm"}));
  EXPECT_TRUE(parseMetricLabelNames("").ok());
  for (const char* bad :
       {"lat", "lat:", "lat:a,,b", "lat:9a", "lat:le", "lat:__x", "lat:a;lat:b", "lat:a:b"}) {
    EXPECT_FALSE(parseMetricLabelNames(bad).ok()) << bad;
  }
}

std::vector<MetricFamily> families() {
  return {
      {"dtrace_calls", MetricType::Counter, "@calls = count()", {{"_total", "comm=\"sh\"", "3"}}},
      {"dtrace_lat",
       MetricType::Histogram,
       "@lat = quantize()",
       {{"_bucket", "le=\"1\"", "1"}, {"_bucket", "le=\"+Inf\"", "2"}, {"_count", "", "2"}}}};
}

TEST(MetricsExposition, TextFormatNamesACounterByItsSamples) {
  std::string out;
  appendFamilies(out, families(), false);
  endExposition(out, false);
  EXPECT_EQ(out,
            "# HELP dtrace_calls_total @calls = count()\n"
            "# TYPE dtrace_calls_total counter\n"
            "dtrace_calls_total{comm=\"sh\"} 3\n"
            "# HELP dtrace_lat @lat = quantize()\n"
            "# TYPE dtrace_lat histogram\n"
            "dtrace_lat_bucket{le=\"1\"} 1\n"
            "dtrace_lat_bucket{le=\"+Inf\"} 2\n"
            "dtrace_lat_count 2\n");
}

TEST(MetricsExposition, OpenMetricsNamesACounterWithoutTotalAndEnds) {
  std::string out;
  appendFamilies(out, families(), true);
  endExposition(out, true);
  EXPECT_EQ(out.substr(0, out.find('\n', out.find('\n') + 1) + 1),
            "# HELP dtrace_calls @calls = count()\n# TYPE dtrace_calls counter\n");
  EXPECT_NE(out.find("dtrace_calls_total{comm=\"sh\"} 3\n"), std::string::npos);
  EXPECT_TRUE(out.ends_with("# EOF\n"));
}

}  // namespace
}  // namespace dtrace::output
