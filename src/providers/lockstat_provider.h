// The lockstat provider (the Dynamic Tracing Guide's lockstat chapter) on
// Linux's lock contention tracepoints: lock:contention_begin says a
// thread must wait for a lock and how (spinning, sleeping, as a reader or
// writer), lock:contention_end that it has it (or gave up). The
// contention-event probes fire at the end with the wait in nanoseconds,
// from the time the same thread's begin recorded. Linux has no tracepoint
// for an uncontended acquire or release: the hold-event probes are
// refused by name.
#pragma once

#include <memory>

#include "providers/provider.h"

namespace dtrace::providers {

std::unique_ptr<Provider> makeLockstatProvider();

}  // namespace dtrace::providers
