# UDP datagrams over the loopback interface, IPv4 and IPv6: ip:::send as
# each packet is handed to lo, ip:::receive as lo hands it up, with the
# IP header's addresses, version and payload length (ipinfo_t), the
# interface (ifinfo_t) and the version's own header view (ipv4info_t,
# ipv6info_t; the other one reads as zeros). On loopback the receiving
# softirq runs in the sending process.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/datagrams.py" <<'PY'
import socket
for family, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
    r = socket.socket(family, socket.SOCK_DGRAM); r.bind((host, 0))
    s = socket.socket(family, socket.SOCK_DGRAM); s.connect(r.getsockname())
    s.send(b"0123456789"); r.recv(100)
PY
$DTRACE -q -c "python3 $work/datagrams.py" -n '
  ip:::send, ip:::receive
  /pid == $target && args[3]->if_name == "lo" &&
   (args[4]->ipv4_protocol == 17 || args[5]->ipv6_nexthdr == 17)/ {
    printf("%s v%d %s -> %s, %d bytes, %s local %d, %s%s\n", probename, args[2]->ip_ver,
        args[2]->ip_saddr, args[2]->ip_daddr, args[2]->ip_plength, args[3]->if_name,
        args[3]->if_local, args[4]->ipv4_protostr, args[5]->ipv6_nextstr);
  }'
