// dtrace(1M)'s default output: the probe heading, the per-record prefix
// ("CPU ID FUNCTION:NAME") and trace() of integers, strings and raw bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "ir/program.h"

namespace dtrace::print {

// Printed once, before the first record, when not quiet.
inline constexpr std::string_view kProbeHeading = "CPU     ID                    FUNCTION:NAME\n";

// The column where appendProbePrefix leaves a record's data.
inline constexpr int kDataColumn = 44;

// "  0    412                      read:entry " (BEGIN shows ":BEGIN").
void appendProbePrefix(std::string& out, uint32_t cpu, uint32_t probeId, std::string_view function,
                       std::string_view name);

// trace() of one record field: integers in a column as wide as their size
// needs, signed or unsigned as their type is; strings, structs, unions and
// arrays as bytes. `data` is the record data the field's offset is relative to.
// rawBytes (the rawbytes option): bytes always print as a hex dump.
void appendTrace(std::string& out, const ir::Field& field, const uint8_t* data, bool quiet,
                 bool rawBytes = false);

// Bytes that look like a string print as one (left-justified in |width|
// columns when width < 0); anything else as a hex and ASCII dump.
void appendBytes(std::string& out, const uint8_t* bytes, size_t n, int width, bool quiet,
                 bool forceRaw);

}  // namespace dtrace::print
