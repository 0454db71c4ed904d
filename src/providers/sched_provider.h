// The sched provider (the Dynamic Tracing Guide's sched chapter) on
// Linux's scheduler tracepoints: threads leaving and taking a CPU, being
// woken and put on a run queue.
#pragma once

#include <memory>

#include "providers/provider.h"

namespace dtrace::providers {

std::unique_ptr<Provider> makeSchedProvider();

}  // namespace dtrace::providers
