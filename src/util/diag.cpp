#include "util/diag.h"

namespace dtrace {

std::string formatDiagnostic(const Diagnostic& d, bool withTag, bool withLine) {
  std::string out;
  if (withTag && !d.tag.empty()) out += "[" + d.tag + "] ";
  if (withLine && d.loc.line != 0) out += "line " + std::to_string(d.loc.line) + ": ";
  out += d.message;
  return out;
}

}  // namespace dtrace
