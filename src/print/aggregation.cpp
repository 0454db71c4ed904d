#include "print/aggregation.h"

#include "print/appendf.h"
#include "print/printf.h"
#include "print/trace.h"

namespace dtrace::print {
namespace {

// Strings sit left-justified in 50 columns; integers right-justified in a
// width that depends on their size.
void appendKeyDatum(std::string& out, const ir::Field& f, const uint8_t* key) {
  const uint8_t* p = key + f.offset;
  if (f.kind == ir::DataKind::String) {
    appendBytes(out, p, f.size, -50, false, false);
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
      appendBytes(out, p, f.size, -50, false, false);
      break;
  }
}

}  // namespace

void appendAggregationLine(std::string& out, const ir::Aggregation& agg, const uint8_t* key,
                           int64_t value) {
  for (const ir::Field& f : agg.keys) appendKeyDatum(out, f, key);
  out += ' ';
  appendRightJustified(out, value, 16);
  out += '\n';
}

}  // namespace dtrace::print
