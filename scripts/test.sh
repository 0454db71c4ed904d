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
# The tests, the workloads they trace, and the tree built under
# AddressSanitizer and UndefinedBehaviorSanitizer with the libFuzzer
# targets (-O1 and line tables only: a quicker build, stacks still
# symbolized; the workloads stay gcc's, built as in build/).
ninja -C build -j"$(nproc)" >/dev/null
if [ ! -f build-fuzz/build.ninja ]; then
  CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" -DDTRACE_FUZZ=ON >/dev/null
fi
ninja -C build-fuzz -j"$(nproc)" >/dev/null
# Under AddressSanitizer and UndefinedBehaviorSanitizer: the unit tests,
# then every fuzz target on every input that ever crashed one
# (tests/fuzz/regressions) and a short fuzz run of each (docs/ROBUSTNESS.md).
# A failure here still lets the main suite run; the status says it.
status=0
ctest --test-dir build-fuzz -j"$(nproc)" -L unit --output-on-failure --timeout 300 || status=1
ctest --test-dir build-fuzz -L fuzz --output-on-failure || status=1
tests/fuzz/run --seconds 40 build-fuzz || status=1
ctest --test-dir build -j"$(nproc)" --output-on-failure --timeout 120 || status=1
exit $status
