#include "providers/udp_provider.h"

#include <netinet/in.h>

#include "providers/stable_provider.h"

namespace dtrace::providers {

namespace {

using Test = ProbeGuard::Test;

// sock_send_length(sk, ret, flags) and sock_recv_length(sk, ret, flags):
// arg6 the payload length (ret), arg7 the direction, both untyped (for
// the translators, not args[]).
std::vector<ArgSource> udpArgs(int inbound) {
  ArgSource none;
  none.kind = ArgSource::Kind::Constant;
  none.typeName = "struct sk_buff *";
  none.translatedType = "pktinfo_t *";
  ArgSource length = contextWord(1, "int");
  length.typeName.clear();
  ArgSource direction;
  direction.kind = ArgSource::Kind::Constant;
  direction.constant = inbound;
  return {
      none,
      contextWord(0, "struct sock *", "csinfo_t *"),
      contextWord(0, "struct sock *", "ipinfo_t *"),
      contextWord(0, "struct sock *", "udpsinfo_t *"),
      contextWord(0, "struct sock *", "udpinfo_t *"),
      ArgSource{},
      length,
      direction,
  };
}

std::vector<StableProbe> udpProbes() {
  const ArgSource protocol = contextMember(0, {{"sock", "sk_protocol"}}, 2, "int");
  const std::vector<ProbeGuard> datagram = {guard(Test::Equal, protocol, {IPPROTO_UDP}),
                                            guard(Test::Positive, contextWord(1, "int"))};
  return {
      {"send", {"sock_send_length"}, datagram, udpArgs(0)},
      {"receive", {"sock_recv_length"}, datagram, udpArgs(1)},
  };
}

}  // namespace

std::unique_ptr<Provider> makeUdpProvider() { return makeStableProvider("udp", udpProbes()); }

}  // namespace dtrace::providers
