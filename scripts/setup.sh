#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine: installs the build and run-time
# dependencies from Debian's archive, builds dtrace and installs it as
# /usr/sbin/dtrace (the path `#!/usr/sbin/dtrace -s` scripts name).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ]; then
  echo "setup.sh: run as root (it installs packages and /usr/sbin/dtrace)" >&2
  exit 2
fi

export DEBIAN_FRONTEND=noninteractive
# bookworm-backports carries libbpf 1.4 and the kernel 6.12 UAPI headers:
# the multi-uprobe link (BPF_TRACE_UPROBE_MULTI) that attaches thousands of
# pid probes at once is not in Debian 12's libbpf 1.1 or its headers.
# elfutils comes from there too: libbpf 1.4 (or an image that already
# carries backports' libelf1/libdw1) pulls elfutils 0.192, and Debian 12's
# libdw-dev 0.188 cannot install beside it.
if ! grep -rqs bookworm-backports /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo "deb http://deb.debian.org/debian bookworm-backports main" \
    >/etc/apt/sources.list.d/bookworm-backports.list
fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends -t bookworm-backports \
  libbpf-dev linux-libc-dev libelf-dev libdw-dev >/dev/null
# The rest of what dtrace needs to build and run (cpp: the C preprocessor
# of -C; libcapstone-dev: instruction boundaries for pid offset and return
# probes; libgtest-dev: CMake's configure step looks for it), first: a
# newcomer has an installed dtrace before the test tools arrive.
apt-get install -y -qq --no-install-recommends \
  g++ cmake ninja-build pkg-config cpp binutils \
  zlib1g-dev libcapstone-dev libgtest-dev >/dev/null

# -g1: line tables and function names (backtraces, perf, gdb's `bt`) at
# two thirds of the compile time of full debug info.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" >/dev/null
ninja -C build -j"$(nproc)" dtrace
scripts/install-dtrace.sh build/dtrace
echo "setup.sh: dtrace installed as /usr/sbin/dtrace after ${SECONDS} s"

# What the tests need (scripts/test.sh builds the tests themselves).
# chromium, python3-pil and fonts-dejavu-core: the browser test of flame
# graphs (tests/browser/) renders them and checks the screenshot.
# gcc, make, python3 and systemtap-sdt-dev: the USDT tests build C programs
# with probes and trace the probes Debian's python3 ships. gdb: the tests of
# dtrace -h and -G check that a debugger reads the probes' arguments.
# bpftool: the cleanup tests (tests/d/cleanup/) check that no BPF program,
# map or link of a dtrace outlives it. clang and libclang-rt-14-dev
# (libFuzzer and the sanitizers' run-time): the sanitizer build with the
# fuzz targets (tests/fuzz, docs/ROBUSTNESS.md).
# libdebuginfod1 (gdb's) from backports, to match backports' libelf1 and
# libdw1 installed above. prometheus: a real server scrapes -x metrics
# (tests/d/metrics/). g++ and nodejs: C++ names demangled, and JIT code
# named from the perf map node writes (tests/d/stacks/). libc6-dbg: libc's
# debug symbols name __lll_lock_wait, where plockstat's mutex-block fires
# (tests/d/plockstat/). linux-perf: perf record --call-graph dwarf, the
# reference the CFI-unwound stacks are compared with (tests/d/stacks/).
apt-get install -y -qq --no-install-recommends \
  gcc g++ make python3 systemtap-sdt-dev gdb libdebuginfod1/bookworm-backports bpftool \
  chromium python3-pil fonts-dejavu-core jq gawk clang libclang-rt-14-dev prometheus \
  nodejs libc6-dbg linux-perf/bookworm-backports >/dev/null
echo "setup.sh: test tools installed after ${SECONDS} s; scripts/test.sh builds and runs the tests"
