#include "providers/ip_provider.h"

#include "providers/stable_provider.h"

namespace dtrace::providers {

namespace {

using Test = ProbeGuard::Test;

// sk_buff.protocol, in network byte order as read on x86: ETH_P_IP and
// ETH_P_IPV6.
constexpr int64_t kIpv4Frames = 0x0008, kIpv6Frames = 0xdd86;

ArgSource direction(int inbound) {
  ArgSource a;
  a.kind = ArgSource::Kind::Constant;
  a.constant = inbound;
  return a;  // untyped: arg7 for the translators, not one of args[]
}

// net_dev_start_xmit(skb, dev) and netif_receive_skb(skb).
std::vector<ArgSource> ipArgs(ArgSource device, int inbound) {
  return {
      contextWord(0, "struct sk_buff *", "pktinfo_t *"),
      contextMember(0, {{"sk_buff", "sk"}}, 8, "struct sock *", "csinfo_t *"),
      contextWord(0, "struct sk_buff *", "ipinfo_t *"),
      std::move(device),
      contextWord(0, "struct sk_buff *", "ipv4info_t *"),
      contextWord(0, "struct sk_buff *", "ipv6info_t *"),
      ArgSource{},
      direction(inbound),
  };
}

std::vector<StableProbe> ipProbes() {
  const ProbeGuard isIp = guard(Test::OneOf, contextMember(0, {{"sk_buff", "protocol"}}, 2, "int"),
                                {kIpv4Frames, kIpv6Frames});
  return {
      {"send",
       {"net_dev_start_xmit"},
       {isIp},
       ipArgs(contextWord(1, "struct net_device *", "ifinfo_t *"), 0)},
      {"receive",
       {"netif_receive_skb"},
       {isIp},
       ipArgs(contextMember(0, {{"sk_buff", "dev"}}, 8, "struct net_device *", "ifinfo_t *"), 1)},
  };
}

}  // namespace

std::unique_ptr<Provider> makeIpProvider() { return makeStableProvider("ip", ipProbes()); }

}  // namespace dtrace::providers
