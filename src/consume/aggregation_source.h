// Where the consumer finds aggregations: the kernel's maps while tracing,
// something else in tests. The consumer acts on them in record order
// (printa, clear, trunc) and at the end of tracing.
#pragma once

#include <cstdint>
#include <vector>

#include "consume/aggregation_snapshot.h"
#include "consume/symbol_keys.h"
#include "util/result.h"

namespace dtrace::consume {

class AggregationSource {
 public:
  virtual ~AggregationSource() = default;
  // Every tuple of the aggregation as it is now (with each CPU's own data
  // too if `perCpu`).
  virtual Result<AggregationData> snapshot(const ir::Aggregation& agg, bool perCpu) = 0;
  // clear(): every value of the aggregation becomes zero; the tuples stay.
  virtual void clear(const ir::Aggregation& agg) = 0;
  // trunc(): the tuples go, on every CPU (keys of agg.keySize bytes).
  virtual void remove(const ir::Aggregation& agg, const std::vector<const uint8_t*>& keys) = 0;
};

// The aggregations of a tracing session: one BPF hash map each, and the
// generation words in the globals map that clear() advances.
class KernelAggregations : public AggregationSource {
 public:
  // `mapFds` by aggregation id; `globals` is the mmapped globals value.
  KernelAggregations(std::vector<int> mapFds, uint64_t* globals)
      : mapFds_(std::move(mapFds)), globals_(globals) {}

  // Snapshots merge keys that name functions or modules by what they name;
  // `keys` outlives this.
  void setSymbolKeys(const SymbolKeys* keys) { symbolKeys_ = keys; }

  Result<AggregationData> snapshot(const ir::Aggregation& agg, bool perCpu) override;
  void clear(const ir::Aggregation& agg) override;
  void remove(const ir::Aggregation& agg, const std::vector<const uint8_t*>& keys) override;

 private:
  std::vector<int> mapFds_;
  uint64_t* globals_;
  const SymbolKeys* symbolKeys_ = nullptr;
  void removeByScan(const ir::Aggregation& agg, const std::vector<const uint8_t*>& keys);
};

}  // namespace dtrace::consume
