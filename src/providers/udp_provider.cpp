#include "providers/udp_provider.h"

#include <netinet/in.h>

#include "providers/stable_provider.h"

namespace dtrace::providers {

namespace {

using Test = ProbeGuard::Test;

ArgSource constant(int64_t value) {
  ArgSource a;
  a.kind = ArgSource::Kind::Constant;
  a.constant = value;
  return a;
}

// send: sock_send_length(sk, ret, flags), after a process sent a datagram;
// receive: sk_data_ready(sk), as one is queued on its socket. Both pass
// the socket, from which (and, received, from the datagram last queued on
// it) the translators build every view; arg6 is the payload length sent
// and arg7 the direction (1 inbound), both untyped.
std::vector<ArgSource> udpArgs(bool inbound) {
  ArgSource packet = constant(0);  // none at hand when sent
  packet.typeName = "struct sk_buff *";
  packet.translatedType = "pktinfo_t *";
  if (inbound) {
    packet = contextMember(0, {{"sock", "sk_receive_queue"}, {"sk_buff_head", "prev"}}, 8,
                           "struct sk_buff *", "pktinfo_t *");
  }
  ArgSource length = inbound ? ArgSource{} : contextWord(1, "int");
  length.typeName.clear();
  return {
      packet,
      contextWord(0, "struct sock *", "csinfo_t *"),
      contextWord(0, "struct sock *", "ipinfo_t *"),
      contextWord(0, "struct sock *", "udpsinfo_t *"),
      contextWord(0, "struct sock *", "udpinfo_t *"),
      ArgSource{},
      length,
      constant(inbound ? 1 : 0),
  };
}

std::vector<StableProbe> udpProbes() {
  const ProbeGuard isUdp =
      guard(Test::Equal, contextMember(0, {{"sock", "sk_protocol"}}, 2, "int"), {IPPROTO_UDP});
  return {
      {"send",
       {"sock_send_length"},
       {isUdp, guard(Test::Positive, contextWord(1, "int"))},
       udpArgs(false)},
      {"receive", {"sk_data_ready"}, {isUdp}, udpArgs(true)},
  };
}

}  // namespace

std::unique_ptr<Provider> makeUdpProvider() { return makeStableProvider("udp", udpProbes()); }

}  // namespace dtrace::providers
