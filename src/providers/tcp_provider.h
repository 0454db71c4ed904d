// The tcp provider (Oracle Linux DTrace's, after Solaris's) on Linux's
// socket state tracepoint: connections opened, accepted, refused and every
// state change, with csinfo_t *, tcpsinfo_t * and tcplsinfo_t *
// arguments. Linux has no tracepoint per TCP segment, so send and receive
// are not carried, nor are the ip and udp providers (refused with the
// reasons below).
#pragma once

#include <memory>

#include "providers/provider.h"

namespace dtrace::providers {

std::unique_ptr<Provider> makeTcpProvider();

// Not carried yet: both would come from the device-level packet
// tracepoints (net_dev_start_xmit, netif_receive_skb), filtered by protocol.
inline constexpr const char* kUdpUnavailable =
    "udp provider is not available in this version: Linux has no UDP tracepoint per datagram, "
    "and the device-level packet tracepoints it would need are not carried yet";
inline constexpr const char* kIpUnavailable =
    "ip provider is not available in this version: Linux has no IP tracepoint per packet, and "
    "the device-level packet tracepoints it would need are not carried yet";

}  // namespace dtrace::providers
