// The udp provider (Solaris's, as Oracle Linux DTrace carries it) on the
// socket layer's length tracepoints: send for each datagram a process sends
// on a UDP socket, receive for each one it receives, with pktinfo_t *,
// csinfo_t *, ipinfo_t *, udpsinfo_t * and udpinfo_t * arguments built
// from the socket (Linux has no UDP tracepoint per datagram).
#pragma once

#include <memory>

#include "providers/provider.h"

namespace dtrace::providers {

std::unique_ptr<Provider> makeUdpProvider();

}  // namespace dtrace::providers
