// The proc provider (the Dynamic Tracing Guide's proc chapter) on Linux's
// process tracepoints: process and thread creation, exec, exit and
// signals, with psinfo_t * / lwpsinfo_t * arguments.
#pragma once

#include <memory>

#include "providers/provider.h"

namespace dtrace::providers {

std::unique_ptr<Provider> makeProcProvider();

}  // namespace dtrace::providers
