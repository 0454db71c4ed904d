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
apt-get update -qq
# chromium, python3-pil and fonts-dejavu-core: the browser test of flame
# graphs (tests/browser/) renders them and checks the screenshot.
apt-get install -y -qq --no-install-recommends \
  g++ cmake ninja-build pkg-config cpp \
  libbpf-dev libelf-dev libdw-dev zlib1g-dev libgtest-dev \
  chromium python3-pil fonts-dejavu-core jq gawk >/dev/null

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build -j"$(nproc)"
install -m 0755 build/dtrace /usr/sbin/dtrace
echo "setup.sh: dtrace built and installed as /usr/sbin/dtrace"
