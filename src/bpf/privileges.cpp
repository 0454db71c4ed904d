#include "bpf/privileges.h"

#include <bpf/bpf.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "bpf/errors.h"
#include "util/fd.h"

namespace dtrace::bpf {
namespace {

bool hasCapabilities() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2]{};
  if (syscall(SYS_capget, &header, data) != 0) return false;
  auto has = [&](int cap) { return ((data[cap / 32].effective >> (cap % 32)) & 1) != 0; };
  return has(CAP_SYS_ADMIN) || (has(CAP_BPF) && has(CAP_PERFMON));
}

}  // namespace

bool hasTracingPrivileges() {
  if (!hasCapabilities()) return false;
  Fd map(bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_check", 4, 8, 1, nullptr));
  return map.valid() || !isPermissionError(errno);
}

}  // namespace dtrace::bpf
