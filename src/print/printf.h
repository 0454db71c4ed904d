// Renders a printf() record: the parsed format's conversions consume the
// record's fields in order, formatted exactly as DTrace's printf does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "ir/program.h"
#include "sema/printf_format.h"
#include "util/result.h"

namespace dtrace::print {

// Appends the text of one printf() to `out`. `data` is the record data the
// fields' offsets are relative to, `size` its length.
Result<void> appendPrintf(std::string& out, const sema::PrintfFormat& format,
                          std::span<const ir::Field> fields, const uint8_t* data, size_t size);

// Reads an integer field widened to 64 bits: sign-extended when the field is
// Signed, zero-extended otherwise.
int64_t readSigned(const uint8_t* p, uint32_t size);
uint64_t readUnsigned(const uint8_t* p, uint32_t size);

// The NUL-terminated string in a field of `size` bytes.
std::string_view readString(const uint8_t* p, uint32_t size);

}  // namespace dtrace::print
