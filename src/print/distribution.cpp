#include "print/distribution.h"

#include <cmath>
#include <vector>

#include "print/appendf.h"

namespace dtrace::print {
namespace {

constexpr int kBarWidth = 40;

struct Scale {
  long double total = 0;
  bool positives = false;
  bool negatives = false;
};

Scale scaleOf(const int64_t* buckets, uint32_t first, uint32_t last) {
  Scale s;
  for (uint32_t i = first; i <= last; i++) {
    s.positives |= buckets[i] > 0;
    s.negatives |= buckets[i] < 0;
    s.total += std::fabs(static_cast<long double>(buckets[i]));
  }
  return s;
}

// "|@@@@      count" after the row's label: the bar is the share of the
// total the count makes, rounded; negative counts grow left of the line.
void appendBar(std::string& out, int64_t count, uint64_t normal, const Scale& s) {
  const long long shown = static_cast<long long>(count) / static_cast<long long>(normal);
  auto depthOf = [&](int width) {
    if (s.total == 0) return 0;
    const long double f = std::fabs(static_cast<long double>(count)) * width / s.total;
    return static_cast<int>(f + 0.5L);
  };
  const std::string ats(kBarWidth, '@'), spaces(kBarWidth, ' ');
  if (!s.negatives) {
    const int depth = s.positives ? depthOf(kBarWidth) : 0;
    appendf(out, "|%s%s %-9lld\n", ats.substr(0, depth).c_str(),
            spaces.substr(0, kBarWidth - depth).c_str(), shown);
  } else if (!s.positives) {
    const int depth = depthOf(kBarWidth);
    appendf(out, "%s%s| %-9lld\n", spaces.substr(0, kBarWidth - depth).c_str(),
            ats.substr(0, depth).c_str(), shown);
  } else {
    // Half-width bars on either side of a centre line.
    const int half = kBarWidth / 2;
    const int depth = depthOf(half);
    if (count <= 0) {
      appendf(out, "%s%s|%*s %-9lld\n", spaces.substr(0, half - depth).c_str(),
              ats.substr(0, depth).c_str(), half, "", shown);
    } else {
      appendf(out, "%20s|%s%s %-9lld\n", "", ats.substr(0, depth).c_str(),
              spaces.substr(0, half - depth).c_str(), shown);
    }
  }
}

void appendHeader(std::string& out) {
  appendf(out, "\n%16s %41s %-9s\n", "value", "------------- Distribution -------------", "count");
}

// The rows from one before the first non-zero bucket to one after the
// last; `fallback` is the range shown when every bucket is zero.
struct Rows {
  uint32_t first, last;
};

Rows rowsOf(const int64_t* buckets, uint32_t n, Rows fallback) {
  uint32_t first = 0;
  while (first < n && buckets[first] == 0) first++;
  if (first == n) return fallback;
  uint32_t last = n - 1;
  while (last > 0 && buckets[last] == 0) last--;
  return {first > 0 ? first - 1 : 0, last < n - 1 ? last + 1 : last};
}

void appendQuantize(std::string& out, const int64_t* b, uint64_t normal) {
  const uint32_t zero = ir::kQuantizeZeroBucket;
  const Rows r = rowsOf(b, ir::kQuantizeBuckets, {zero - 1, zero + 1});
  const Scale s = scaleOf(b, r.first, r.last);
  appendHeader(out);
  for (uint32_t i = r.first; i <= r.last; i++) {
    appendf(out, "%16lld ", static_cast<long long>(ir::quantizeBucketValue(i)));
    appendBar(out, b[i], normal, s);
  }
}

void appendLquantize(std::string& out, const ir::AggParams& p, const int64_t* b,
                     uint64_t normal) {
  const Rows r = rowsOf(b, p.levels + 2, {0, 2});
  const Scale s = scaleOf(b, r.first, r.last);
  appendHeader(out);
  for (uint32_t i = r.first; i <= r.last; i++) {
    if (i == 0) {
      appendf(out, "%16s ", ("< " + std::to_string(p.base)).c_str());
    } else if (i == p.levels + 1) {
      const long long limit = p.base + static_cast<long long>(p.levels) * p.step;
      appendf(out, "%16s ", (">= " + std::to_string(limit)).c_str());
    } else {
      appendf(out, "%16lld ", static_cast<long long>(ir::lquantizeBucketValue(p, i)));
    }
    appendBar(out, b[i], normal, s);
  }
}

uint64_t power(uint64_t base, uint32_t exponent) {
  uint64_t r = 1;
  for (uint32_t i = 0; i < exponent; i++) r *= base;
  return r;
}

// llquantize: the rows are labelled with each bucket's lowest value; the
// buckets between whole numbers (steps > factor at magnitude 0) have no
// label of their own and are not shown.
void appendLlquantize(std::string& out, const ir::AggParams& p, const int64_t* b,
                      uint64_t normal) {
  const uint32_t zero = ir::llquantizeZeroBucket(p);
  const uint32_t n = 2 * zero + 1;
  uint32_t first = 0;
  while (first < n && b[first] == 0) first++;
  uint32_t last;
  if (first == n) {
    first = last = zero + 1;
  } else {
    last = n - 1;
    while (b[last] == 0) last--;
  }
  const Scale s = scaleOf(b, first, last);
  appendHeader(out);
  if (first > 0) first--;
  if (last < n - 1) last++;
  const uint64_t low = power(p.factor, p.lowMagnitude);
  const uint64_t high = power(p.factor, p.highMagnitude + 1);
  const bool fractional = p.lowMagnitude == 0 && p.steps > p.factor;
  const uint32_t stepsPerFactor = p.steps / p.factor;
  // A row's label, or "" for a bucket that has none.
  auto label = [&](uint32_t i) -> std::string {
    if (i == zero) {
      if (low == 1) return "0";
      return (first >= zero ? "< " : "abs() < ") + std::to_string(low);
    }
    if (i == 0) return "<= -" + std::to_string(high);
    if (i == n - 1) return ">= " + std::to_string(high);
    const uint32_t distance = i > zero ? i - zero : zero - i;
    if (fractional && distance > 1 && distance <= 1 + (p.factor - 1) * stepsPerFactor &&
        (distance - 1) % stepsPerFactor != 0) {
      return "";
    }
    const int64_t v = ir::llquantizeBucketValue(p, i);
    return std::to_string(v);
  };
  // A first or last row on an unlabelled bucket takes the nearest label
  // beyond it, so the range shown still starts and ends with a row.
  auto edgeLabel = [&](uint32_t i, int direction) {
    std::string l = label(i);
    for (uint32_t j = i; l.empty() && j > 0 && j < n - 1;) {
      j = static_cast<uint32_t>(static_cast<int>(j) + direction);
      l = label(j);
    }
    return l;
  };
  for (uint32_t i = first; i <= last; i++) {
    std::string l = i == first ? edgeLabel(i, -1) : i == last ? edgeLabel(i, 1) : label(i);
    if (l.empty()) continue;
    appendf(out, "%16s ", l.c_str());
    appendBar(out, b[i], normal, s);
  }
}

}  // namespace

void appendDistribution(std::string& out, const ir::Aggregation& agg, const int64_t* buckets,
                        uint64_t normal) {
  if (normal == 0) normal = 1;
  switch (agg.func) {
    case ir::AggFunc::Quantize:
      appendQuantize(out, buckets, normal);
      break;
    case ir::AggFunc::Lquantize:
      appendLquantize(out, agg.params, buckets, normal);
      break;
    case ir::AggFunc::Llquantize:
      appendLlquantize(out, agg.params, buckets, normal);
      break;
    default:
      break;
  }
}

}  // namespace dtrace::print
