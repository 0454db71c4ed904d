// Whether this process may trace: load BPF programs and open perf events.
#pragma once

namespace dtrace::bpf {

// True with CAP_SYS_ADMIN, or CAP_BPF and CAP_PERFMON, in the effective set
// (root has them unless they were dropped), and when the kernel then lets
// a BPF map be created: a lockdown, LSM or seccomp policy that refuses
// bpf() is found here rather than as an EPERM in the middle of enabling.
bool hasTracingPrivileges();

}  // namespace dtrace::bpf
