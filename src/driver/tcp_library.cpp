// tcp.d: the tcp provider's own argument types (tcpinfo_t, tcpsinfo_t,
// tcplsinfo_t) and their translators from Linux's socket and packet
// structures; it builds on ip.d (pktinfo_t, csinfo_t, ipinfo_t). TCP
// states carry Linux's numbers (TCP_ESTABLISHED 1 ... TCP_CLOSING 11),
// under DTrace's names.
#include "driver/d_library.h"

namespace dtrace::driver {

extern const char kTcpLibrarySource[] = R"D(
/* The tcp provider's args[] use ip.d's pktinfo_t, csinfo_t and ipinfo_t. */
typedef struct tcpinfo {
  uint16_t tcp_sport;
  uint16_t tcp_dport;
  uint32_t tcp_seq;
  uint32_t tcp_ack;
  uint8_t tcp_offset;
  uint8_t tcp_flags;
  uint16_t tcp_window;
  uint16_t tcp_checksum;
  uint16_t tcp_urgent;
  uintptr_t tcp_hdr;
} tcpinfo_t;

typedef struct tcpsinfo {
  uintptr_t tcps_addr;
  int tcps_local;
  uint16_t tcps_lport;
  uint16_t tcps_rport;
  string tcps_laddr;
  string tcps_raddr;
  int tcps_state;
  uint32_t tcps_iss;
  uint32_t tcps_suna;
  uint32_t tcps_snxt;
  uint32_t tcps_rnxt;
  uint32_t tcps_swnd;
  int32_t tcps_snd_ws;
  uint32_t tcps_rwnd;
  int32_t tcps_rcv_ws;
  uint32_t tcps_cwnd;
  uint32_t tcps_cwnd_ssthresh;
  uint32_t tcps_sack_snxt;
  uint32_t tcps_rto;
  uint32_t tcps_mss;
  int tcps_retransmit;
  uint32_t tcps_rtt;
  uint32_t tcps_rtt_sd;
  uint32_t tcps_irs;
} tcpsinfo_t;

typedef struct tcplsinfo {
  int tcps_state;
} tcplsinfo_t;

inline int TH_FIN = 0x01;
inline int TH_SYN = 0x02;
inline int TH_RST = 0x04;
inline int TH_PSH = 0x08;
inline int TH_ACK = 0x10;
inline int TH_URG = 0x20;
inline int TH_ECE = 0x40;
inline int TH_CWR = 0x80;

inline int TCP_STATE_IDLE = 0;
inline int TCP_STATE_ESTABLISHED = 1;
inline int TCP_STATE_SYN_SENT = 2;
inline int TCP_STATE_SYN_RECEIVED = 3;
inline int TCP_STATE_FIN_WAIT_1 = 4;
inline int TCP_STATE_FIN_WAIT_2 = 5;
inline int TCP_STATE_TIME_WAIT = 6;
inline int TCP_STATE_CLOSED = 7;
inline int TCP_STATE_CLOSE_WAIT = 8;
inline int TCP_STATE_LAST_ACK = 9;
inline int TCP_STATE_LISTEN = 10;
inline int TCP_STATE_CLOSING = 11;

/* The TCP header of a packet; NULL when the probe has no packet. */
translator tcpinfo_t < struct sk_buff *S > {
  tcp_sport = S != NULL ? ntohs(((struct tcphdr *)(S->head + S->transport_header))->source) : 0;
  tcp_dport = S != NULL ? ntohs(((struct tcphdr *)(S->head + S->transport_header))->dest) : 0;
  tcp_seq = S != NULL ? ntohl(((struct tcphdr *)(S->head + S->transport_header))->seq) : 0;
  tcp_ack = S != NULL ? ntohl(((struct tcphdr *)(S->head + S->transport_header))->ack_seq) : 0;
  tcp_offset = S != NULL ? (*(uint8_t *)(S->head + S->transport_header + 12) & 0xf0) >> 2 : 0;
  tcp_flags = S != NULL ? *(uint8_t *)(S->head + S->transport_header + 13) : 0;
  tcp_window = S != NULL ? ntohs(((struct tcphdr *)(S->head + S->transport_header))->window) : 0;
  tcp_checksum = S != NULL ? ntohs(((struct tcphdr *)(S->head + S->transport_header))->check) : 0;
  tcp_urgent = S != NULL ? ntohs(((struct tcphdr *)(S->head + S->transport_header))->urg_ptr) : 0;
  tcp_hdr = S != NULL ? (uintptr_t)(S->head + S->transport_header) : 0;
};

/*
 * The connection's state from its socket. tcps_state is the probe's arg6:
 * the state the connection enters (Linux's socket still holds the one it
 * leaves when the probe fires).
 */
translator tcpsinfo_t < struct sock *S > {
  tcps_addr = (uintptr_t)S;
  tcps_local = S->__sk_common.skc_family == AF_INET ?
      S->__sk_common.skc_rcv_saddr == S->__sk_common.skc_daddr :
      S->__sk_common.skc_v6_rcv_saddr.in6_u.u6_addr32[0] ==
          S->__sk_common.skc_v6_daddr.in6_u.u6_addr32[0] &&
      S->__sk_common.skc_v6_rcv_saddr.in6_u.u6_addr32[1] ==
          S->__sk_common.skc_v6_daddr.in6_u.u6_addr32[1] &&
      S->__sk_common.skc_v6_rcv_saddr.in6_u.u6_addr32[2] ==
          S->__sk_common.skc_v6_daddr.in6_u.u6_addr32[2] &&
      S->__sk_common.skc_v6_rcv_saddr.in6_u.u6_addr32[3] ==
          S->__sk_common.skc_v6_daddr.in6_u.u6_addr32[3];
  tcps_lport = S->__sk_common.skc_num;
  tcps_rport = ntohs(S->__sk_common.skc_dport);
  tcps_laddr = S->__sk_common.skc_family == AF_INET ?
      inet_ntoa(&S->__sk_common.skc_rcv_saddr) : inet_ntoa6(&S->__sk_common.skc_v6_rcv_saddr);
  tcps_raddr = S->__sk_common.skc_family == AF_INET ?
      inet_ntoa(&S->__sk_common.skc_daddr) : inet_ntoa6(&S->__sk_common.skc_v6_daddr);
  tcps_state = arg6;
  tcps_iss = ((struct tcp_sock *)S)->snd_una - (uint32_t)((struct tcp_sock *)S)->bytes_acked;
  tcps_suna = ((struct tcp_sock *)S)->snd_una;
  tcps_snxt = ((struct tcp_sock *)S)->snd_nxt;
  tcps_rnxt = ((struct tcp_sock *)S)->rcv_nxt;
  tcps_swnd = ((struct tcp_sock *)S)->snd_wnd;
  tcps_snd_ws = ((struct tcp_sock *)S)->rx_opt.snd_wscale;
  tcps_rwnd = ((struct tcp_sock *)S)->rcv_wnd;
  tcps_rcv_ws = ((struct tcp_sock *)S)->rx_opt.rcv_wscale;
  tcps_cwnd = ((struct tcp_sock *)S)->snd_cwnd;
  tcps_cwnd_ssthresh = ((struct tcp_sock *)S)->snd_ssthresh;
  tcps_rto = ((struct tcp_sock *)S)->inet_conn.icsk_rto;
  tcps_mss = ((struct tcp_sock *)S)->mss_cache;
  tcps_rtt = (((struct tcp_sock *)S)->srtt_us >> 3) / 1000;
  tcps_rtt_sd = (((struct tcp_sock *)S)->mdev_us >> 2) / 1000;
  tcps_irs = ((struct tcp_sock *)S)->rcv_nxt - (uint32_t)((struct tcp_sock *)S)->bytes_received;
};

translator tcplsinfo_t < int I > {
  tcps_state = I;
};
)D";

}  // namespace dtrace::driver
