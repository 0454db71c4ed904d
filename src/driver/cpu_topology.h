// Which chip (physical package) each CPU belongs to, as a D expression:
// DTrace's `chip` and cpuinfo_t's cpu_chip. Linux keeps the package of a
// CPU in a per-CPU variable BPF cannot name here, so the session reads the
// topology from sysfs once and the compiler folds it into the program.
#pragma once

#include <string>
#include <string_view>

namespace dtrace::driver {

// A D expression of `cpu` (a D expression naming a CPU id) giving its chip
// id; -1 for a CPU sysfs does not describe.
std::string chipOfCpu(std::string_view cpu);

}  // namespace dtrace::driver
