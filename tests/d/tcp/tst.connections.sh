# TCP connections on the loopback interface: a connection opened and
# accepted (connect-request, connect-established, accept-established with
# the listener's port), one refused by a closed port (connect-refused), and
# state-change with the new state in args[3] and the old one in args[5].
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The ports chosen first, so that the predicates see only this test's
# connections (other tests may open loopback connections meanwhile).
read -r listen closed < <(python3 -c '
import socket
a = socket.socket(); a.bind(("127.0.0.1", 0)); b = socket.socket(); b.bind(("127.0.0.1", 0))
print(a.getsockname()[1], b.getsockname()[1])')
cat >"$work/connect.py" <<'PY'
import socket, sys
listen, closed = int(sys.argv[1]), int(sys.argv[2])
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", listen)); s.listen()
c = socket.create_connection(s.getsockname()); a, _ = s.accept()
a.close(); c.close(); s.close()
try:
    socket.create_connection(("127.0.0.1", closed))
except ConnectionRefusedError:
    pass
PY
$DTRACE -q -c "python3 $work/connect.py $listen $closed" -n '
  tcp:::connect-request, tcp:::connect-refused
  /args[3]->tcps_raddr == "127.0.0.1" && (args[3]->tcps_rport == $1 || args[3]->tcps_rport == $2)/ {
    @[probename] = count();
  }
  tcp:::connect-established /args[3]->tcps_raddr == "127.0.0.1" && args[3]->tcps_rport == $1/ {
    printf("connected to %d\n", args[3]->tcps_rport);
  }
  tcp:::accept-established /args[3]->tcps_laddr == "127.0.0.1" && args[3]->tcps_lport == $1/ {
    printf("accepted on %d\n", args[3]->tcps_lport);
  }
  tcp:::state-change /args[3]->tcps_laddr == "127.0.0.1" &&
      (args[3]->tcps_lport == $1 || args[3]->tcps_rport == $1) &&
      args[3]->tcps_state == TCP_STATE_ESTABLISHED/ {
    @["state-change to established"] = count();
  }
  tcp:::state-change /args[3]->tcps_laddr == "127.0.0.1" && args[3]->tcps_lport == $1 &&
      args[5]->tcps_state == TCP_STATE_LISTEN && args[3]->tcps_state == TCP_STATE_CLOSED/ {
    @["state-change: listener closed"] = count();
  }
  END { printa("%s %@d\n", @); }' "$listen" "$closed" > "$work/out"
sed "s/ $listen\$/ PORT/" "$work/out" | sort
