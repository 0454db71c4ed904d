// The tcp provider (Oracle Linux DTrace's, after Solaris's) on Linux's
// socket state tracepoint: connections opened, accepted, refused and every
// state change, with csinfo_t *, tcpsinfo_t * and tcplsinfo_t *
// arguments. Linux has no tracepoint per TCP segment, so send and receive
// are not carried.
#pragma once

#include <memory>

#include "providers/provider.h"

namespace dtrace::providers {

std::unique_ptr<Provider> makeTcpProvider();

}  // namespace dtrace::providers
