# A metrics address that cannot be served ends dtrace with the reason: one
# it cannot read before any probe is enabled, one taken when it binds.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 - "$port" <<'PY' &
import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen()
time.sleep(5)
PY
holder=$!
for _ in $(seq 50); do
  python3 -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null && break
  sleep 0.1
done
$DTRACE -q -x metrics="$port" -n 'syscall::getppid:entry { @ = count(); }' 2>&1 >/dev/null |
  sed "s/$port/PORT/" >&2
status=${PIPESTATUS[0]}
$DTRACE -q -x metrics=localhost:http-alt -n 'BEGIN { exit(0); }'
kill $holder
exit "$status"
