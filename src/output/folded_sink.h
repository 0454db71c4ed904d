// -x oformat=folded: aggregations as folded stacks, a line per entry
// ("frame;frame;... count"), the input of flame graph tools
// (docs/OUTPUT.md). Records print as text does, but to stderr, so that the
// output holds the stacks alone.
#pragma once

#include <cstdio>

#include "output/text_sink.h"

namespace dtrace::output {

class FoldedSink : public TextSink {
 public:
  FoldedSink(FILE* out, FILE* err, bool quiet, bool rawBytes)
      : TextSink(out, quiet, rawBytes), err_(err) {}

  Result<void> printa(const consume::AggregationPrint& request) override;
  Result<void> tracingStopped() override { return {}; }  // no empty line
  Result<void> finalAggregation(const consume::AggregationPrint& request) override;

 protected:
  FILE* recordOut() override { return err_; }

 private:
  FILE* err_;
};

}  // namespace dtrace::output
