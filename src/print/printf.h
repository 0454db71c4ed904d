// Renders a printf() record: the parsed format's conversions consume the
// record's fields in order, formatted exactly as DTrace's printf does.
#pragma once

#include <cstddef>
#include <cstring>
#include <functional>
#include <cstdint>
#include <span>
#include <string>

#include "ir/program.h"
#include "ir/printf_format.h"
#include "print/stack.h"
#include "util/result.h"

namespace dtrace::print {

// printa(): renders the value of the `index`-th aggregation (0 for the
// first %@ conversion, 1 for the second...) where a %@ conversion stands;
// `stem` is "%" with the conversion's flags, width and precision.
using AggregationValueFn = std::function<void(std::string& out, const ir::PrintfConversion& c,
                                              const std::string& stem, size_t index)>;

// Appends the text of one printf() to `out`. `data` is the record data the
// fields' offsets are relative to, `size` its length. printa() passes
// `aggregationValue` for its %@ conversions (and the key as the data).
// `symbols` names user addresses (%A, %k of a ustack()); without it they
// print in hex.
Result<void> appendPrintf(std::string& out, const ir::PrintfFormat& format,
                          std::span<const ir::Field> fields, const uint8_t* data, size_t size,
                          const AggregationValueFn& aggregationValue = {},
                          const SymbolContext* symbols = nullptr);

// One conversion of a 64-bit integer (printa's %@ values); `stem` is "%"
// with the conversion's flags, width and precision.
void appendIntegerConversion(std::string& out, const ir::PrintfConversion& c,
                             const std::string& stem, int64_t value);

// Reads an integer field widened to 64 bits: zero-extended (readUnsigned)
// or sign-extended (readSigned). Fixed-size loads: the sort of a large
// aggregation compares keys millions of times.
inline uint64_t readUnsigned(const uint8_t* p, uint32_t size) {
  switch (size) {
    case 1: return *p;
    case 2: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case 4: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case 8: {
      uint64_t v;
      std::memcpy(&v, p, 8);
      return v;
    }
    default: {
      uint64_t v = 0;  // little-endian: the low bytes come first
      std::memcpy(&v, p, size < 8 ? size : 8);
      return v;
    }
  }
}

inline int64_t readSigned(const uint8_t* p, uint32_t size) {
  const uint64_t u = readUnsigned(p, size);
  if (size >= 8 || size == 0) return static_cast<int64_t>(u);
  const unsigned shift = 64 - 8 * size;  // sign-extend from the field's top bit
  return static_cast<int64_t>(u << shift) >> shift;
}

// The NUL-terminated string in a field of `size` bytes.
std::string_view readString(const uint8_t* p, uint32_t size);

}  // namespace dtrace::print
