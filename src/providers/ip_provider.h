// The ip provider (Solaris's, as Oracle Linux DTrace carries it) on the
// device-level packet tracepoints: send as an IP packet is handed to its
// device, receive as a device hands one up, with pktinfo_t *, csinfo_t *,
// ipinfo_t *, ifinfo_t *, ipv4info_t * and ipv6info_t * arguments.
#pragma once

#include <memory>

#include "providers/provider.h"

namespace dtrace::providers {

std::unique_ptr<Provider> makeIpProvider();

}  // namespace dtrace::providers
