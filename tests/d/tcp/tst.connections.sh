# TCP connections on the loopback interface: a connection opened and
# accepted (connect-request, connect-established, accept-established with
# the listener's port), one refused by a closed port (connect-refused), and
# state-change with the new state in args[3] and the old one in args[5].
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/connect.py" <<'PY'
import socket
closed = socket.socket(); closed.bind(("127.0.0.1", 0)); free = closed.getsockname(); closed.close()
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
print("listening on", s.getsockname()[1], flush=True)
c = socket.create_connection(s.getsockname()); a, _ = s.accept()
a.close(); c.close(); s.close()
try:
    socket.create_connection(free)
except ConnectionRefusedError:
    pass
PY
$DTRACE -q -c "python3 $work/connect.py" -n '
  tcp:::connect-request, tcp:::connect-refused
  /args[3]->tcps_raddr == "127.0.0.1"/ { @[probename] = count(); }
  tcp:::connect-established /args[3]->tcps_raddr == "127.0.0.1"/ {
    printf("connected to %d\n", args[3]->tcps_rport);
  }
  tcp:::accept-established /args[3]->tcps_laddr == "127.0.0.1"/ {
    printf("accepted on %d\n", args[3]->tcps_lport);
  }
  tcp:::state-change /args[3]->tcps_laddr == "127.0.0.1" &&
      args[3]->tcps_state == TCP_STATE_ESTABLISHED/ {
    @["state-change to established"] = count();
  }
  tcp:::state-change /args[3]->tcps_laddr == "127.0.0.1" &&
      args[5]->tcps_state == TCP_STATE_LISTEN && args[3]->tcps_state == TCP_STATE_CLOSED/ {
    @["state-change: listener closed"] = count();
  }
  END { printa("%s %@d\n", @); }' > "$work/out"
port=$(sed -n 's/^listening on //p' "$work/out")
grep -v '^listening on' "$work/out" | sed "s/ $port\$/ PORT/" | sort
