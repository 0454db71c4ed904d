# udp:::send and udp:::receive for each datagram a process sends or
# receives on a UDP socket: the socket's addresses and ports (udpsinfo_t),
# the datagram's length with its header (udpinfo_t), its IP view
# (ipinfo_t: the payload counts the UDP header). The sender is connected,
# so its remote end is known; a received datagram is queued (receive) in
# the sender's send, on loopback.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/datagrams.py" <<'PY'
import socket
r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); r.bind(("127.0.0.1", 0))
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.connect(r.getsockname())
print("receiver", r.getsockname()[1], flush=True)
for size in (10, 20):
    s.send(b"x" * size); r.recv(100)
PY
$DTRACE -q -c "python3 $work/datagrams.py" -n '
  udp:::send /pid == $target/ {
    printf("send %s -> %s:%d, %d bytes, payload %d\n", args[3]->udps_laddr, args[3]->udps_raddr,
        args[3]->udps_rport, args[4]->udp_length, args[2]->ip_plength);
  }
  udp:::receive /pid == $target/ {
    printf("receive on %s:%d, %d bytes, to %s\n", args[3]->udps_laddr, args[3]->udps_lport,
        args[4]->udp_length, args[2]->ip_daddr);
  }' > "$work/out"
port=$(sed -n 's/^receiver //p' "$work/out")
grep -v '^receiver' "$work/out" | sed "s/:$port\\b/:PORT/"
