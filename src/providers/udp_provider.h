// The udp provider (Solaris's, as Oracle Linux DTrace carries it) on the
// socket layer's tracepoints (Linux has no UDP tracepoint per datagram):
// send for each datagram a process sends on a UDP socket (its views built
// from the socket), receive for each one queued on a UDP socket (from the
// datagram's headers and the socket), with pktinfo_t *, csinfo_t *,
// ipinfo_t *, udpsinfo_t * and udpinfo_t * arguments.
#pragma once

#include <memory>

#include "providers/provider.h"

namespace dtrace::providers {

std::unique_ptr<Provider> makeUdpProvider();

}  // namespace dtrace::providers
