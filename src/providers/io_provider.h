// The io provider (the Dynamic Tracing Guide's io chapter) on the block
// layer's request tracepoints: start when a request is issued to the
// device, done when it completes, with bufinfo_t *, devinfo_t * and
// fileinfo_t * arguments.
#pragma once

#include <memory>

#include "providers/provider.h"

namespace dtrace::providers {

std::unique_ptr<Provider> makeIoProvider();

}  // namespace dtrace::providers
