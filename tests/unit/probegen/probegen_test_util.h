// Helpers shared by the generator tests.
#pragma once

#include <string>
#include <vector>

#include "probegen/generate.h"

namespace dtrace::probegen::testing {

// The providers of D source `text` (a script named t.d), or the message
// compiling it gives.
inline Result<std::vector<ProviderDefinition>> providersOf(const std::string& text,
                                                           bool errtags = false) {
  GenerateOptions options;
  options.errtags = errtags;
  return compileProviders({{"t.d", text, true}}, options);
}

inline std::string errorOf(const std::string& text) {
  auto r = providersOf(text, true);
  return r ? "compiled" : r.error().message;
}

}  // namespace dtrace::probegen::testing
