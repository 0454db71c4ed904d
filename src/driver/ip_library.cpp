// ip.d: the network providers' common argument types (pktinfo_t,
// csinfo_t, ipinfo_t) and the ip provider's own (ifinfo_t, ipv4info_t,
// ipv6info_t), with translators from Linux's sk_buff, sock and
// net_device. A probe's arg7 says which way its packet goes (1 inbound,
// 0 outbound): an inbound packet's IP header is at its data, an outbound
// one's at its network header (its data is the link-layer header).
#include "driver/d_library.h"

namespace dtrace::driver {

extern const char kIpLibrarySource[] = R"D(
typedef struct pktinfo {
  uintptr_t pkt_addr;
} pktinfo_t;

typedef struct csinfo {
  uintptr_t cs_addr;
  uint64_t cs_cid;
} csinfo_t;

typedef struct ipinfo {
  uint8_t ip_ver;
  uint32_t ip_plength;
  string ip_saddr;
  string ip_daddr;
} ipinfo_t;

typedef struct ifinfo {
  string if_name;
  int8_t if_local;
  int if_ipstack;
  uintptr_t if_addr;
} ifinfo_t;

typedef struct ipv4info {
  uint8_t ipv4_ver;
  uint8_t ipv4_ihl;
  uint8_t ipv4_tos;
  uint16_t ipv4_length;
  uint16_t ipv4_ident;
  uint8_t ipv4_flags;
  uint16_t ipv4_offset;
  uint8_t ipv4_ttl;
  uint8_t ipv4_protocol;
  string ipv4_protostr;
  uint16_t ipv4_checksum;
  uint32_t ipv4_src;
  uint32_t ipv4_dst;
  string ipv4_saddr;
  string ipv4_daddr;
  uintptr_t ipv4_hdr;
} ipv4info_t;

typedef struct ipv6info {
  uint8_t ipv6_ver;
  uint8_t ipv6_tclass;
  uint32_t ipv6_flow;
  uint16_t ipv6_plen;
  uint8_t ipv6_nexthdr;
  string ipv6_nextstr;
  uint8_t ipv6_hlim;
  in6_addr_t *ipv6_src;
  in6_addr_t *ipv6_dst;
  string ipv6_saddr;
  string ipv6_daddr;
  uintptr_t ipv6_hdr;
} ipv6info_t;

inline int IPPROTO_IP = 0;
inline int IPPROTO_ICMP = 1;
inline int IPPROTO_IGMP = 2;
inline int IPPROTO_TCP = 6;
inline int IPPROTO_UDP = 17;
inline int IPPROTO_IPV6 = 41;
inline int IPPROTO_ICMPV6 = 58;
inline int IPPROTO_RAW = 255;

translator pktinfo_t < struct sk_buff *S > {
  pkt_addr = (uintptr_t)S;
};

/* A connection is identified by its socket (NULL: none). */
translator csinfo_t < struct sock *S > {
  cs_addr = (uintptr_t)S;
  cs_cid = (uint64_t)S;
};

/* The IP header of a packet; a NULL packet reads as none. */
translator ipinfo_t < struct sk_buff *S > {
  ip_ver = S == NULL ? 0 :
      *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4;
  ip_plength = S == NULL ? 0 :
      *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 == 4 ?
      ntohs(((struct iphdr *)(arg7 ? S->data : S->head + S->network_header))->tot_len) -
          (*(uint8_t *)(arg7 ? S->data : S->head + S->network_header) & 0xf) * 4 :
      ntohs(((struct ipv6hdr *)(arg7 ? S->data : S->head + S->network_header))->payload_len);
  ip_saddr = S == NULL ? "<unknown>" :
      *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 == 4 ?
      inet_ntoa(&((struct iphdr *)(arg7 ? S->data : S->head + S->network_header))->saddr) :
      inet_ntoa6(&((struct ipv6hdr *)(arg7 ? S->data : S->head + S->network_header))->saddr);
  ip_daddr = S == NULL ? "<unknown>" :
      *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 == 4 ?
      inet_ntoa(&((struct iphdr *)(arg7 ? S->data : S->head + S->network_header))->daddr) :
      inet_ntoa6(&((struct ipv6hdr *)(arg7 ? S->data : S->head + S->network_header))->daddr);
};

/*
 * A datagram's IP view from its socket. Sent (arg7 0): the socket's
 * addresses, arg6 the payload length. Received (arg7 1): the header of
 * the datagram just queued on the socket, the last of its receive queue.
 */
translator ipinfo_t < struct sock *S > {
  ip_ver = S->__sk_common.skc_family == AF_INET ? 4 : 6;
  ip_plength = !arg7 ? arg6 + 8 :
      S->__sk_common.skc_family == AF_INET ?
      ntohs(((struct iphdr *)(((struct sk_buff *)S->sk_receive_queue.prev)->head +
          ((struct sk_buff *)S->sk_receive_queue.prev)->network_header))->tot_len) -
          (*(uint8_t *)(((struct sk_buff *)S->sk_receive_queue.prev)->head +
          ((struct sk_buff *)S->sk_receive_queue.prev)->network_header) & 0xf) * 4 :
      ntohs(((struct ipv6hdr *)(((struct sk_buff *)S->sk_receive_queue.prev)->head +
          ((struct sk_buff *)S->sk_receive_queue.prev)->network_header))->payload_len);
  ip_saddr = !arg7 ? (S->__sk_common.skc_family == AF_INET ?
      inet_ntoa(&S->__sk_common.skc_rcv_saddr) : inet_ntoa6(&S->__sk_common.skc_v6_rcv_saddr)) :
      S->__sk_common.skc_family == AF_INET ?
      inet_ntoa(&((struct iphdr *)(((struct sk_buff *)S->sk_receive_queue.prev)->head +
          ((struct sk_buff *)S->sk_receive_queue.prev)->network_header))->saddr) :
      inet_ntoa6(&((struct ipv6hdr *)(((struct sk_buff *)S->sk_receive_queue.prev)->head +
          ((struct sk_buff *)S->sk_receive_queue.prev)->network_header))->saddr);
  ip_daddr = !arg7 ? (S->__sk_common.skc_family == AF_INET ?
      inet_ntoa(&S->__sk_common.skc_daddr) : inet_ntoa6(&S->__sk_common.skc_v6_daddr)) :
      S->__sk_common.skc_family == AF_INET ?
      inet_ntoa(&((struct iphdr *)(((struct sk_buff *)S->sk_receive_queue.prev)->head +
          ((struct sk_buff *)S->sk_receive_queue.prev)->network_header))->daddr) :
      inet_ntoa6(&((struct ipv6hdr *)(((struct sk_buff *)S->sk_receive_queue.prev)->head +
          ((struct sk_buff *)S->sk_receive_queue.prev)->network_header))->daddr);
};

translator ifinfo_t < struct net_device *D > {
  if_name = D != NULL ? stringof(D->name) : "<unknown>";
  if_local = D != NULL && (D->flags & 0x8) ? 1 : 0;
  if_ipstack = 0;
  if_addr = (uintptr_t)D;
};

/* All zero for a packet that is not IPv4. */
translator ipv4info_t < struct sk_buff *S > {
  ipv4_ver = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4;
  ipv4_ihl = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 4 ? 0 :
      (*(uint8_t *)(arg7 ? S->data : S->head + S->network_header) & 0xf) * 4;
  ipv4_tos = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 4 ? 0 :
      ((struct iphdr *)(arg7 ? S->data : S->head + S->network_header))->tos;
  ipv4_length = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 4 ? 0 :
      ntohs(((struct iphdr *)(arg7 ? S->data : S->head + S->network_header))->tot_len);
  ipv4_ident = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 4 ? 0 :
      ntohs(((struct iphdr *)(arg7 ? S->data : S->head + S->network_header))->id);
  ipv4_flags = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 4 ? 0 :
      ntohs(((struct iphdr *)(arg7 ? S->data : S->head + S->network_header))->frag_off) >> 13;
  ipv4_offset = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 4 ? 0 :
      ntohs(((struct iphdr *)(arg7 ? S->data : S->head + S->network_header))->frag_off) & 0x1fff;
  ipv4_ttl = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 4 ? 0 :
      ((struct iphdr *)(arg7 ? S->data : S->head + S->network_header))->ttl;
  ipv4_protocol = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 4 ? 0 :
      ((struct iphdr *)(arg7 ? S->data : S->head + S->network_header))->protocol;
  ipv4_protostr = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 4 ? "" :
      ((struct iphdr *)(arg7 ? S->data : S->head + S->network_header))->protocol == 6 ? "TCP" :
      ((struct iphdr *)(arg7 ? S->data : S->head + S->network_header))->protocol == 17 ? "UDP" :
      ((struct iphdr *)(arg7 ? S->data : S->head + S->network_header))->protocol == 1 ? "ICMP" :
      "<unknown>";
  ipv4_checksum = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 4 ? 0 :
      ntohs(((struct iphdr *)(arg7 ? S->data : S->head + S->network_header))->check);
  ipv4_src = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 4 ? 0 :
      ((struct iphdr *)(arg7 ? S->data : S->head + S->network_header))->saddr;
  ipv4_dst = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 4 ? 0 :
      ((struct iphdr *)(arg7 ? S->data : S->head + S->network_header))->daddr;
  ipv4_saddr = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 4 ? "" :
      inet_ntoa(&((struct iphdr *)(arg7 ? S->data : S->head + S->network_header))->saddr);
  ipv4_daddr = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 4 ? "" :
      inet_ntoa(&((struct iphdr *)(arg7 ? S->data : S->head + S->network_header))->daddr);
  ipv4_hdr = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 4 ? 0 :
      (uintptr_t)(arg7 ? S->data : S->head + S->network_header);
};

/* All zero for a packet that is not IPv6. */
translator ipv6info_t < struct sk_buff *S > {
  ipv6_ver = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4;
  ipv6_tclass = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 6 ? 0 :
      (ntohl(*(uint32_t *)(arg7 ? S->data : S->head + S->network_header)) >> 20) & 0xff;
  ipv6_flow = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 6 ? 0 :
      ntohl(*(uint32_t *)(arg7 ? S->data : S->head + S->network_header)) & 0xfffff;
  ipv6_plen = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 6 ? 0 :
      ntohs(((struct ipv6hdr *)(arg7 ? S->data : S->head + S->network_header))->payload_len);
  ipv6_nexthdr = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 6 ? 0 :
      ((struct ipv6hdr *)(arg7 ? S->data : S->head + S->network_header))->nexthdr;
  ipv6_nextstr = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 6 ? "" :
      ((struct ipv6hdr *)(arg7 ? S->data : S->head + S->network_header))->nexthdr == 6 ? "TCP" :
      ((struct ipv6hdr *)(arg7 ? S->data : S->head + S->network_header))->nexthdr == 17 ? "UDP" :
      ((struct ipv6hdr *)(arg7 ? S->data : S->head + S->network_header))->nexthdr == 58 ?
      "ICMPV6" : "<unknown>";
  ipv6_hlim = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 6 ? 0 :
      ((struct ipv6hdr *)(arg7 ? S->data : S->head + S->network_header))->hop_limit;
  ipv6_saddr = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 6 ? "" :
      inet_ntoa6(&((struct ipv6hdr *)(arg7 ? S->data : S->head + S->network_header))->saddr);
  ipv6_daddr = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 6 ? "" :
      inet_ntoa6(&((struct ipv6hdr *)(arg7 ? S->data : S->head + S->network_header))->daddr);
  ipv6_hdr = *(uint8_t *)(arg7 ? S->data : S->head + S->network_header) >> 4 != 6 ? 0 :
      (uintptr_t)(arg7 ? S->data : S->head + S->network_header);
};
)D";

}  // namespace dtrace::driver
