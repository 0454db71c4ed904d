// udp.d: the udp provider's own argument types (udpinfo_t, udpsinfo_t),
// translated from the socket a datagram is sent on (arg6 the payload
// length) or queued on (arg7 1: from the datagram's headers); it builds on
// ip.d (pktinfo_t, csinfo_t, ipinfo_t).
#include "driver/d_library.h"

namespace dtrace::driver {

extern const char kUdpLibrarySource[] = R"D(
/* The udp provider's args[] use ip.d's pktinfo_t, csinfo_t and ipinfo_t. */
typedef struct udpinfo {
  uint16_t udp_sport;
  uint16_t udp_dport;
  uint16_t udp_length;
  uint16_t udp_checksum;
  uintptr_t udp_hdr;
} udpinfo_t;

typedef struct udpsinfo {
  uintptr_t udps_addr;
  uint16_t udps_lport;
  uint16_t udps_rport;
  string udps_laddr;
  string udps_raddr;
} udpsinfo_t;

/*
 * A datagram sent (arg7 0): its header as the socket's ports and the
 * payload length (arg6) make it. Received (arg7 1): the header of the
 * datagram just queued on the socket, the last of its receive queue.
 */
translator udpinfo_t < struct sock *S > {
  udp_sport = arg7 ? ntohs(((struct udphdr *)(((struct sk_buff *)S->sk_receive_queue.prev)->head +
      ((struct sk_buff *)S->sk_receive_queue.prev)->transport_header))->source) :
      S->__sk_common.skc_num;
  udp_dport = arg7 ? ntohs(((struct udphdr *)(((struct sk_buff *)S->sk_receive_queue.prev)->head +
      ((struct sk_buff *)S->sk_receive_queue.prev)->transport_header))->dest) :
      ntohs(S->__sk_common.skc_dport);
  udp_length = arg7 ? ntohs(((struct udphdr *)(((struct sk_buff *)S->sk_receive_queue.prev)->head +
      ((struct sk_buff *)S->sk_receive_queue.prev)->transport_header))->len) : arg6 + 8;
};

translator udpsinfo_t < struct sock *S > {
  udps_addr = (uintptr_t)S;
  udps_lport = S->__sk_common.skc_num;
  udps_rport = ntohs(S->__sk_common.skc_dport);
  udps_laddr = S->__sk_common.skc_family == AF_INET ?
      inet_ntoa(&S->__sk_common.skc_rcv_saddr) : inet_ntoa6(&S->__sk_common.skc_v6_rcv_saddr);
  udps_raddr = S->__sk_common.skc_family == AF_INET ?
      inet_ntoa(&S->__sk_common.skc_daddr) : inet_ntoa6(&S->__sk_common.skc_v6_daddr);
};
)D";

}  // namespace dtrace::driver
