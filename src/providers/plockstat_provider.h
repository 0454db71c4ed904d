// The plockstat provider (the Dynamic Tracing Guide's plockstat chapter)
// on glibc: plockstatPID's probes are uprobes in process PID's libc.
// Acquisitions, errors and releases fire at the `ret` instructions of the
// pthread mutex and rwlock functions, with the lock the caller passed
// recorded at the function's entry (providers/thread_record.h); a mutex
// blocks in __lll_lock_wait, the futex wait of pthread_mutex_lock (named
// by libc's debug symbols). glibc spins and waits on rwlocks inline, with
// no function to probe: those probes are refused by name.
#pragma once

#include <memory>

#include "providers/provider.h"

namespace dtrace::providers {

std::unique_ptr<ProviderFamily> makePlockstatProviderFamily();

}  // namespace dtrace::providers
