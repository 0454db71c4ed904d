#!/usr/bin/env bash
# Runs every test: GoogleTest unit tests and the D script tests, through
# ctest, as root against real probes.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ]; then
  echo "test.sh: run as root (script tests attach real probes)" >&2
  exit 2
fi
tracefs=/sys/kernel/tracing
if [ ! -e "$tracefs/events" ]; then
  mount -t tracefs nodev "$tracefs"
fi
[ -d build ] || { echo "test.sh: run scripts/setup.sh first" >&2; exit 2; }
ninja -C build -j"$(nproc)" >/dev/null
ctest --test-dir build -j"$(nproc)" --output-on-failure --timeout 120
