#include "providers/tcp_provider.h"

#include <netinet/in.h>
#include <netinet/tcp.h>

#include "providers/stable_provider.h"

namespace dtrace::providers {

namespace {

using Test = ProbeGuard::Test;

// Every probe has DTrace's six arguments, and the state the connection
// enters as arg6, which the tcpsinfo_t translator reads (tcps_state).
constexpr size_t kNewStateArg = 6;

ArgSource none(std::string type, std::string translated) {
  ArgSource a;
  a.kind = ArgSource::Kind::Constant;
  a.typeName = std::move(type);
  a.translatedType = std::move(translated);
  return a;
}

std::vector<ArgSource> tcpArgs(ArgSource previousState, ArgSource newState) {
  std::vector<ArgSource> args = {
      none("struct sk_buff *", "pktinfo_t *"), contextWord(0, "struct sock *", "csinfo_t *"),
      none("struct sk_buff *", "ipinfo_t *"),  contextWord(0, "struct sock *", "tcpsinfo_t *"),
      none("struct sk_buff *", "tcpinfo_t *"), std::move(previousState),
  };
  newState.typeName.clear();  // not one of args[]
  args.resize(kNewStateArg);
  args.push_back(std::move(newState));
  return args;
}

std::vector<StableProbe> tcpProbes() {
  // inet_sock_set_state(sk, oldstate, newstate), for every protocol's
  // sockets, before the socket takes the new state.
  const ArgSource protocol = contextMember(0, {{"sock", "sk_protocol"}}, 2, "int");
  const ArgSource oldState = contextWord(1, "int");
  const ArgSource newState = contextWord(2, "int");
  const ProbeGuard isTcp = guard(Test::Equal, protocol, {IPPROTO_TCP});
  auto transition = [&](int from, int to) {
    return std::vector<ProbeGuard>{isTcp, guard(Test::Equal, oldState, {from}),
                                   guard(Test::Equal, newState, {to})};
  };
  // tcp_receive_reset(sk): a reset arrived; in SYN_SENT, the connection
  // was refused.
  const ArgSource socketState =
      contextMember(0, {{"sock", "__sk_common"}, {"sock_common", "skc_state"}}, 1, "int");
  ArgSource noPrevious;  // connect and accept probes have five arguments
  return {
      {"state-change",
       {"inet_sock_set_state"},
       {isTcp},
       tcpArgs(contextWord(1, "int", "tcplsinfo_t *"), newState)},
      {"connect-request",
       {"inet_sock_set_state"},
       transition(TCP_CLOSE, TCP_SYN_SENT),
       tcpArgs(noPrevious, newState)},
      {"connect-established",
       {"inet_sock_set_state"},
       transition(TCP_SYN_SENT, TCP_ESTABLISHED),
       tcpArgs(noPrevious, newState)},
      {"accept-established",
       {"inet_sock_set_state"},
       transition(TCP_SYN_RECV, TCP_ESTABLISHED),
       tcpArgs(noPrevious, newState)},
      {"connect-refused",
       {"tcp_receive_reset"},
       {guard(Test::Equal, socketState, {TCP_SYN_SENT})},
       tcpArgs(noPrevious, socketState)},
  };
}

}  // namespace

std::unique_ptr<Provider> makeTcpProvider() {
  const char* noSegments = "Linux has no tracepoint for each TCP segment sent or received";
  return makeStableProvider(
      "tcp", tcpProbes(),
      {{"send", noSegments},
       {"receive", noSegments},
       {"accept-refused",
        "the reset Linux sends (tcp_send_reset) does not say that a connection attempt caused "
        "it"}});
}

}  // namespace dtrace::providers
