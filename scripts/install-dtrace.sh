#!/usr/bin/env bash
# Installs a built dtrace as /usr/sbin/dtrace without its debug info (a
# small fraction of the size it is built with), and puts the debug info
# where gdb and perf look for it: /usr/lib/debug/.build-id/, by the
# binary's build ID. The binary in the build tree keeps everything.
# DESTDIR, when set, is the root to install under instead of /.
#   scripts/install-dtrace.sh build/dtrace
set -euo pipefail
built=${1:?usage: install-dtrace.sh path/to/dtrace}
root=${DESTDIR:-}

build_id=$(readelf -n "$built" | awk '/Build ID:/ { print $3 }')
stripped=$(mktemp)
trap 'rm -f "$stripped"' EXIT
if [ -n "$build_id" ]; then
  debug=$root/usr/lib/debug/.build-id/${build_id:0:2}/${build_id:2}.debug
  mkdir -p "$(dirname "$debug")"
  objcopy --only-keep-debug --compress-debug-sections "$built" "$debug"
  chmod 0644 "$debug"
fi
objcopy --strip-debug --strip-unneeded "$built" "$stripped"
mkdir -p "$root/usr/sbin"
install -m 0755 "$stripped" "$root/usr/sbin/dtrace"
