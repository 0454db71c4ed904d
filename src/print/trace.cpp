#include "print/trace.h"

#include <algorithm>
#include <cstring>

#include "print/appendf.h"
#include "print/printf.h"

namespace dtrace::print {
namespace {

// Printable for DTrace: isprint or isspace in the C locale, or one of the
// two control characters terminals give meaning to (backspace and bell).
bool printable(uint8_t c) {
  return (c >= 0x20 && c < 0x7f) || c == ' ' || (c >= '\t' && c <= '\r') || c == '\b' || c == '\a';
}

void appendHexDump(std::string& out, const uint8_t* bytes, size_t n) {
  constexpr int kMargin = 5;
  appendf(out, "\n%*s      ", kMargin, "");
  for (int i = 0; i < 16; i++) appendf(out, "  %c", "0123456789abcdef"[i]);
  out += "  0123456789abcdef\n";

  for (size_t i = 0; i < n; i += 16) {
    appendf(out, "%*s%5zx:", kMargin, "", i);
    size_t j;
    for (j = i; j < i + 16 && j < n; j++) appendf(out, " %02x", bytes[j]);
    for (; j % 16 != 0; j++) out += "   ";
    out += "  ";
    for (j = i; j < i + 16 && j < n; j++) {
      const uint8_t c = bytes[j];
      out += (c < ' ' || c > '~') ? '.' : static_cast<char>(c);
    }
    out += '\n';
  }
}

// dtrace(1M)'s column for an integer of `size` bytes; 0 for other sizes.
int integerColumn(uint32_t size) {
  switch (size) {
    case 8:
      return 16;
    case 4:
      return 8;
    case 2:
      return 5;
    case 1:
      return 3;
    default:
      return 0;
  }
}

}  // namespace

// "%3u %6u %32s " without snprintf: every record of the default output
// starts with it.
void appendProbePrefix(std::string& out, uint32_t cpu, uint32_t probeId, std::string_view function,
                       std::string_view name) {
  appendRightJustified(out, cpu, 3);
  out += ' ';
  appendRightJustified(out, probeId, 6);
  out += ' ';
  const size_t length = function.size() + 1 + name.size();
  if (length < 32) out.append(32 - length, ' ');
  out.append(function).append(1, ':').append(name).append(1, ' ');
}

void appendBytes(std::string& out, const uint8_t* bytes, size_t n, int width, bool quiet,
                 bool forceRaw) {
  if (n == 0) return;
  if (!forceRaw) {
    size_t i = 0;
    for (; i < n; i++) {
      if (printable(bytes[i])) continue;
      if (bytes[i] == '\0' && i > 0) {
        // A string only if nothing but NULs follows its terminator.
        size_t j = i + 1;
        while (j < n && bytes[j] == '\0') j++;
        if (j != n) break;
        const std::string_view s(reinterpret_cast<const char*>(bytes), i);
        if (quiet) {
          out.append(s);
        } else if (width < 0) {
          out += "  ";
          appendLeftJustified(out, s, -width);
        } else {
          out += ' ';
          if (static_cast<size_t>(width) > s.size()) out.append(width - s.size(), ' ');
          out.append(s);
        }
        return;
      }
      break;
    }
    if (i == n) {
      // All printable with no terminator: still a string.
      const std::string s(reinterpret_cast<const char*>(bytes), n);
      appendf(out, "  %-*s", width, s.c_str());
      return;
    }
  }
  appendHexDump(out, bytes, n);
}

void appendTrace(std::string& out, const ir::Field& field, const uint8_t* data, bool quiet,
                 bool rawBytes) {
  const uint8_t* p = data + field.offset;
  const bool integer = field.kind == ir::DataKind::Signed || field.kind == ir::DataKind::Unsigned;
  const int width = integerColumn(field.size);
  const uint8_t* nul = field.kind == ir::DataKind::String
                           ? static_cast<const uint8_t*>(std::memchr(p, 0, field.size))
                           : nullptr;
  if (nul && std::any_of(nul, p + field.size, [](uint8_t b) { return b != 0; })) {
    // DTrace stores a string zero-padded to its size; the bytes after the
    // NUL here are whatever the record's space held before.
    std::string padded(reinterpret_cast<const char*>(p), static_cast<size_t>(nul - p));
    padded.resize(field.size, '\0');
    appendBytes(out, reinterpret_cast<const uint8_t*>(padded.data()), padded.size(), -33, quiet,
                rawBytes);
    return;
  }
  if (!integer || width == 0) {
    appendBytes(out, p, field.size, -33, quiet, rawBytes);
    return;
  }
  // Signed or unsigned as the traced expression's type is.
  if (!quiet) out += ' ';
  if (field.kind == ir::DataKind::Signed) {
    appendRightJustified(out, readSigned(p, field.size), quiet ? 0 : width);
  } else {
    appendRightJustified(out, readUnsigned(p, field.size), quiet ? 0 : width);
  }
}

}  // namespace dtrace::print
