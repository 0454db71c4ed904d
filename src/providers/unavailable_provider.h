// Providers DTrace has that this kernel cannot carry: a description that
// names one fails with one clear message saying why (at -l too), instead
// of matching nothing.
#pragma once

#include <memory>
#include <string>

#include "providers/provider.h"

namespace dtrace::providers {

std::unique_ptr<Provider> makeUnavailableProvider(std::string name, std::string reason);

}  // namespace dtrace::providers
