// Providers DTrace has that this kernel cannot carry: a description that
// names one fails to enable with one clear message saying why, instead of
// matching nothing; -l lists it as matching nothing, as DTrace does.
#pragma once

#include <memory>
#include <string>

#include "providers/provider.h"

namespace dtrace::providers {

// The tag of the errors that say why such a provider (or a stable
// provider's unavailable probe) matches nothing: DTrace's D_PDESC_ZERO.
inline constexpr const char* kMatchesNothingTag = "D_PDESC_ZERO";

std::unique_ptr<Provider> makeUnavailableProvider(std::string name, std::string reason);

}  // namespace dtrace::providers
