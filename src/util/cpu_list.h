// The CPUs the kernel lists in sysfs ("0-3,5"), for what is opened once
// per CPU (perf events).
#pragma once

#include <string_view>
#include <vector>

namespace dtrace {

// Parses a CPU list as sysfs writes it: "0-3,5" is 0, 1, 2, 3, 5.
std::vector<int> parseCpuList(std::string_view text);

// The CPUs of /sys/devices/system/cpu/online; at least CPU 0.
std::vector<int> onlineCpus();

}  // namespace dtrace
