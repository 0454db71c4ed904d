#include "print/distribution.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>

#include "print/appendf.h"

namespace dtrace::print {
namespace {

constexpr int kBarWidth = 40;
constexpr double kZoomedHeight = 0.95;  // -x aggzoom: the tallest bar's share of the width

uint64_t power(uint64_t base, uint32_t exponent) {
  uint64_t r = 1;
  for (uint32_t i = 0; i < exponent; i++) r *= base;
  return r;
}

// The counts of a distribution's buckets in increasing bucket order, read
// from its sparse value: the rows ask for every bucket in a range in turn.
class BucketCursor {
 public:
  explicit BucketCursor(const int64_t* value) : d_(value) {}
  bool empty() const { return d_.empty(); }
  uint32_t first() const { return d_.bucket(0); }
  uint32_t last() const { return d_.bucket(d_.size() - 1); }
  // The count of `bucket`; buckets must be asked for in increasing order.
  int64_t at(uint32_t bucket) {
    while (next_ < d_.size() && d_.bucket(next_) < bucket) next_++;
    return next_ < d_.size() && d_.bucket(next_) == bucket ? d_.count(next_) : 0;
  }

 private:
  ir::SparseDistribution d_;
  uint32_t next_ = 0;
};

// The buckets from one before the first with data to one after the last;
// `fallback` when every bucket is zero.
struct Range {
  uint32_t first, last;
};

Range shownRange(const BucketCursor& b, uint32_t n, Range fallback) {
  if (b.empty()) return fallback;
  const uint32_t first = b.first(), last = b.last();
  return {first > 0 ? first - 1 : 0, last < n - 1 ? last + 1 : last};
}

std::vector<DistributionRow> quantizeRows(BucketCursor b) {
  const uint32_t zero = ir::kQuantizeZeroBucket;
  const Range r = shownRange(b, ir::kQuantizeBuckets, {zero - 1, zero + 1});
  std::vector<DistributionRow> rows;
  rows.reserve(r.last - r.first + 1);
  for (uint32_t i = r.first; i <= r.last; i++) {
    const int64_t v = ir::quantizeBucketValue(i);
    rows.push_back({std::to_string(v), v, b.at(i)});
  }
  return rows;
}

std::vector<DistributionRow> lquantizeRows(const ir::AggParams& p, BucketCursor b) {
  const Range r = shownRange(b, p.levels + 2, {0, 2});
  std::vector<DistributionRow> rows;
  rows.reserve(r.last - r.first + 1);
  for (uint32_t i = r.first; i <= r.last; i++) {
    if (i == 0) {
      rows.push_back({"< " + std::to_string(p.base), INT64_MIN, b.at(i)});
    } else if (i == p.levels + 1) {
      const int64_t limit = p.base + static_cast<int64_t>(p.levels) * p.step;
      rows.push_back({">= " + std::to_string(limit), limit, b.at(i)});
    } else {
      const int64_t v = ir::lquantizeBucketValue(p, i);
      rows.push_back({std::to_string(v), v, b.at(i)});
    }
  }
  return rows;
}

// factor^(high+1), the bound of llquantize's outermost buckets, in
// decimal even when it does not fit in 64 bits.
std::string llquantizeOuterBound(const ir::AggParams& p) {
  unsigned __int128 bound = 1;
  for (uint32_t i = 0; i <= p.highMagnitude; i++) bound *= p.factor;
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(bound % 10)));
    bound /= 10;
  } while (bound != 0);
  return digits;
}

// llquantize: the rows are labelled with each bucket's lowest value.
std::vector<DistributionRow> llquantizeRows(const ir::AggParams& p, BucketCursor b) {
  const uint32_t zero = ir::llquantizeZeroBucket(p);
  const uint32_t n = 2 * zero + 1;
  const Range r = shownRange(b, n, {zero + 1, zero + 1});
  uint32_t first = r.first, last = r.last;
  if (b.empty()) {
    first = zero;
    last = std::min(zero + 2, n - 1);
  }
  const uint64_t low = power(p.factor, p.lowMagnitude);
  auto label = [&](uint32_t i) -> std::string {
    if (i == zero) {
      if (low == 1) return "0";
      return (first >= zero ? "< " : "abs() < ") + std::to_string(low);
    }
    if (i == 0) return "<= -" + llquantizeOuterBound(p);
    if (i == n - 1) return ">= " + llquantizeOuterBound(p);
    const std::string magnitude = std::to_string(ir::llquantizeBucketMagnitude(p, i));
    return i > zero ? magnitude : "-" + magnitude;
  };
  std::vector<DistributionRow> rows;
  rows.reserve(last - first + 1);
  for (uint32_t i = first; i <= last; i++) {
    const int64_t value = i == 0 ? INT64_MIN : i == zero ? 0 : ir::llquantizeBucketValue(p, i);
    rows.push_back({label(i), value, b.at(i)});
  }
  return rows;
}

// " count\n", the count left-justified in 9 columns.
void appendCount(std::string& out, long long count) {
  char digits[24];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, count);
  out += ' ';
  appendLeftJustified(out, std::string_view(digits, static_cast<size_t>(end - digits)), 9);
  out += '\n';
}

using Magnitude = unsigned __int128;  // a sum of counts' absolute values

uint64_t magnitude(int64_t count) {
  return count < 0 ? 0 - static_cast<uint64_t>(count) : static_cast<uint64_t>(count);
}

// What a full bar stands for: the sum of the counts shown, or with
// -x aggzoom the largest of them over kZoomedHeight.
struct BarTotal {
  Magnitude sum = 0;
  long double zoomed = 0;
  bool zoom = false;
  bool utf8 = false;  // -x encoding=utf8: bars of block characters

  void add(int64_t count) {
    sum += magnitude(count);
    // As dt_quantize_total() scales: by 1 / 0.95 computed as a double.
    zoomed = std::max(zoomed, static_cast<long double>(magnitude(count)) *
                                  static_cast<long double>(1 / kZoomedHeight));
  }
};

// A bar's depth: |count| * width / total, rounded half up, as DTrace's long
// double arithmetic has it. Integers give the same result while the total
// is far below 2^64 (the quotient's rounding error stays below the
// distance of any p/total from a half), and cost a fraction of the x87
// conversion, which a million distributions feel.
size_t barDepth(int64_t count, int width, const BarTotal& bar) {
  if (bar.zoom) {
    if (bar.zoomed == 0) return 0;
    return static_cast<size_t>(static_cast<long double>(magnitude(count)) * width / bar.zoomed +
                               0.5L);
  }
  const Magnitude total = bar.sum;
  if (total == 0) return 0;
  if (total < Magnitude{1} << 50) {
    return static_cast<size_t>((2 * Magnitude{magnitude(count)} * width + total) / (2 * total));
  }
  const long double f =
      static_cast<long double>(magnitude(count)) * width / static_cast<long double>(total);
  return static_cast<size_t>(f + 0.5L);
}

void appendUtf8(std::string& out, uint32_t codePoint) {  // U+0800 to U+FFFF
  out += static_cast<char>(0xe0 | (codePoint >> 12));
  out += static_cast<char>(0x80 | ((codePoint >> 6) & 0x3f));
  out += static_cast<char>(0x80 | (codePoint & 0x3f));
}

// libdtrace's UTF-8 bar: the share in whole columns of U+2588, then the
// eighths left over as one of U+2589 to U+258F (not rounded), then blanks.
void appendUtf8Bar(std::string& out, int64_t count, const BarTotal& total) {
  constexpr uint32_t kFullBlock = 0x2588, kOneEighth = 0x258f;
  const long double whole = total.zoom ? total.zoomed : static_cast<long double>(total.sum);
  const long double f = static_cast<long double>(magnitude(count)) * kBarWidth / whole;
  const auto columns = static_cast<size_t>(f);
  const auto eighths = static_cast<uint32_t>((f - static_cast<long double>(columns)) * 8);
  out += '|';
  for (size_t i = 0; i < columns; i++) appendUtf8(out, kFullBlock);
  size_t used = columns;
  if (eighths != 0) {
    appendUtf8(out, kOneEighth - (eighths - 1));
    used++;
  }
  out.append(kBarWidth - used, ' ');
}

// "|@@@@      count" after the row's label: the bar is the share of the
// total the count makes, rounded; negative counts grow left of the line.
// Appended piece by piece: a large table prints millions of these.
void appendBar(std::string& out, int64_t count, uint64_t normal, const BarTotal& total,
               bool positives, bool negatives) {
  const long long shown = static_cast<long long>(count) / static_cast<long long>(normal);
  const size_t width = kBarWidth;
  if (total.utf8 && positives && !negatives) {
    appendUtf8Bar(out, count, total);
  } else if (!negatives) {
    const size_t depth = positives ? barDepth(count, kBarWidth, total) : 0;
    out += '|';
    out.append(depth, '@').append(width - depth, ' ');
  } else if (!positives) {
    const size_t depth = barDepth(count, kBarWidth, total);
    out.append(width - depth, ' ').append(depth, '@');
    out += '|';
  } else {
    // Half-width bars on either side of a centre line.
    const size_t half = width / 2;
    const size_t depth = barDepth(count, kBarWidth / 2, total);
    if (count <= 0) {
      out.append(half - depth, ' ').append(depth, '@');
      out += '|';
      out.append(half, ' ');
    } else {
      out.append(half, ' ');
      out += '|';
      out.append(depth, '@').append(half - depth, ' ');
    }
  }
  appendCount(out, shown);
}

}  // namespace

std::vector<DistributionRow> distributionRows(const ir::Aggregation& agg, const int64_t* buckets) {
  switch (agg.func) {
    case ir::AggFunc::Quantize:
      return quantizeRows(BucketCursor(buckets));
    case ir::AggFunc::Lquantize:
      return lquantizeRows(agg.params, BucketCursor(buckets));
    case ir::AggFunc::Llquantize:
      return llquantizeRows(agg.params, BucketCursor(buckets));
    default:
      return {};
  }
}

void appendDistribution(std::string& out, const ir::Aggregation& agg, const int64_t* buckets,
                        uint64_t normal, BarStyle style) {
  if (normal == 0) normal = 1;
  const std::vector<DistributionRow> rows = distributionRows(agg, buckets);
  BarTotal total;
  total.zoom = style.scale == BarScale::Largest;
  total.utf8 = style.utf8;
  bool positives = false, negatives = false;
  for (const DistributionRow& row : rows) {
    positives |= row.count > 0;
    negatives |= row.count < 0;
    total.add(row.count);
  }
  appendDistributionHeader(out, 0);
  for (const DistributionRow& row : rows) {
    out.append(row.label.size() < 16 ? 16 - row.label.size() : 0, ' ');
    out += row.label;
    out += ' ';
    appendBar(out, row.count, normal, total, positives, negatives);
  }
}

void appendDistributionHeader(std::string& out, size_t keyWidth) {
  appendf(out, "\n%*s %41s %-9s\n", keyWidth ? static_cast<int>(keyWidth) : 16,
          keyWidth ? "key" : "value", "------------- Distribution -------------", "count");
}

struct Histogram::Total : BarTotal {};

Histogram::Histogram(BarStyle style) : total_(std::make_unique<Total>()) {
  total_->zoom = style.scale == BarScale::Largest;
  total_->utf8 = style.utf8;
}
Histogram::~Histogram() = default;

void Histogram::add(int64_t value) {
  positives_ |= value > 0;
  negatives_ |= value < 0;
  total_->add(value);
}

void Histogram::appendBar(std::string& out, int64_t value, uint64_t normal) const {
  out += ' ';
  print::appendBar(out, value, normal == 0 ? 1 : normal, *total_, positives_, negatives_);
}

namespace {

// libdtrace's dt_ndigits(): the columns `value` takes, at least 4.
int columnsFor(long long value) {
  int n = 1;
  long long bound = 10;
  if (value < 0) {
    value = value == LLONG_MIN ? LLONG_MAX : -value;
    n++;
  }
  while (value > bound && bound > 0) {
    n++;
    bound *= 10;
  }
  return n < 4 ? 4 : n;
}

}  // namespace

PackedDistributions::PackedDistributions(const ir::Aggregation& agg, BarStyle style)
    : agg_(agg), zoom_(style.scale == BarScale::Largest), utf8_(style.utf8) {}

void PackedDistributions::add(const int64_t* buckets) {
  if (agg_.func != ir::AggFunc::Quantize) return;
  const ir::SparseDistribution d(buckets);
  uint32_t first = UINT32_MAX, last = 0;
  for (uint32_t i = 0; i < d.size(); i++) {
    if (d.count(i) == 0) continue;
    first = std::min(first, d.bucket(i));
    last = std::max(last, d.bucket(i));
  }
  if (first == UINT32_MAX) first = last = ir::kQuantizeZeroBucket;  // no data (clear())
  firstUsed_ = std::min(firstUsed_, first);
  lastUsed_ = std::max(lastUsed_, last);
}

// quantize(): one bucket either side of those used (none below the zero
// bucket); lquantize(): every bucket.
PackedDistributions::Span PackedDistributions::shown() const {
  if (agg_.func != ir::AggFunc::Quantize) return {0, agg_.params.levels + 1};
  Span s{firstUsed_ == UINT32_MAX ? ir::kQuantizeZeroBucket : firstUsed_,
         firstUsed_ == UINT32_MAX ? ir::kQuantizeZeroBucket : lastUsed_};
  if (s.first != 0 && s.first != ir::kQuantizeZeroBucket) s.first--;
  if (s.last < ir::kQuantizeBuckets - 1) s.last++;
  return s;
}

void PackedDistributions::appendHeader(std::string& out, size_t keyWidth) const {
  const Span s = shown();
  int minWidth = 7, maxWidth = 8;
  if (agg_.func == ir::AggFunc::Quantize) {
    minWidth = columnsFor(ir::quantizeBucketValue(s.first));
    maxWidth = columnsFor(ir::quantizeBucketValue(s.last));
  }
  appendf(out, "\n%*s %*s .", static_cast<int>(keyWidth), keyWidth > 0 ? "key" : "", minWidth,
          "min");
  out.append(s.last - s.first + 1, '-');
  appendf(out, ". %*s | count\n", -maxWidth, "max");
}

// libdtrace's dt_print_packed(): a bucket's share of the total as one of
// eight heights, or of six below zero.
void PackedDistributions::appendChar(std::string& out, int64_t count, long double total) const {
  if (count == 0) {
    out += ' ';
    return;
  }
  const long double datum = static_cast<long double>(count);
  if (count < 0) {
    static constexpr char kNegative[] = "vvvvVV";
    out += kNegative[static_cast<unsigned>(-datum * 5 / total + 0.5L)];
  } else if (utf8_) {
    appendUtf8(out, 0x2581 + static_cast<unsigned>(datum * 7 / total + 0.5L));
  } else {
    static constexpr char kPositive[] = "__xxxxXX";
    out += kPositive[static_cast<unsigned>(datum * 7 / total + 0.5L)];
  }
}

void PackedDistributions::appendLine(std::string& out, const int64_t* buckets) const {
  const Span s = shown();
  BucketCursor b(buckets);
  std::vector<int64_t> counts;
  BarTotal total;
  total.zoom = zoom_;
  long double sum = 0;
  for (uint32_t i = s.first; i <= s.last; i++) {
    counts.push_back(b.at(i));
    total.add(counts.back());
    sum += static_cast<long double>(counts.back());
  }
  const long double scale = zoom_ ? total.zoomed : static_cast<long double>(total.sum);
  if (agg_.func == ir::AggFunc::Quantize) {
    const long long low = ir::quantizeBucketValue(s.first);
    appendf(out, " %*lld :", columnsFor(low), low);
  } else {
    appendf(out, "%8s :", ("< " + std::to_string(agg_.params.base)).c_str());
  }
  for (int64_t count : counts) appendChar(out, count, scale);
  if (agg_.func == ir::AggFunc::Quantize) {
    const long long high = ir::quantizeBucketValue(s.last);
    appendf(out, ": %*lld | %lld\n", -columnsFor(high), high, static_cast<long long>(sum));
  } else {
    const int64_t limit =
        agg_.params.base + static_cast<int64_t>(agg_.params.levels) * agg_.params.step;
    appendf(out, ": %-8s | %lld\n", (">= " + std::to_string(limit)).c_str(),
            static_cast<long long>(sum));
  }
}

}  // namespace dtrace::print
