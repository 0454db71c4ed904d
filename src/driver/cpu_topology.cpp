#include "driver/cpu_topology.h"

#include <fstream>
#include <string>
#include <vector>

namespace dtrace::driver {

namespace {

// A run of consecutive CPU ids on one chip.
struct ChipRange {
  int first;
  int last;
  int chip;
};

// /sys/devices/system/cpu/possible: "0-3,8-11".
std::vector<int> possibleCpus() {
  std::ifstream in("/sys/devices/system/cpu/possible");
  std::string list;
  std::getline(in, list);
  std::vector<int> cpus;
  size_t at = 0;
  while (at < list.size()) {
    size_t end = list.find(',', at);
    if (end == std::string::npos) end = list.size();
    const std::string part = list.substr(at, end - at);
    const size_t dash = part.find('-');
    try {
      const int first = std::stoi(part);
      const int last = dash == std::string::npos ? first : std::stoi(part.substr(dash + 1));
      for (int c = first; c <= last; c++) cpus.push_back(c);
    } catch (const std::exception&) {
    }
    at = end + 1;
  }
  return cpus;
}

int chipOf(int cpu) {
  std::ifstream in("/sys/devices/system/cpu/cpu" + std::to_string(cpu) +
                   "/topology/physical_package_id");
  int chip = -1;
  return in >> chip ? chip : -1;
}

std::vector<ChipRange> chipRanges() {
  std::vector<ChipRange> ranges;
  for (int cpu : possibleCpus()) {
    const int chip = chipOf(cpu);
    if (!ranges.empty() && ranges.back().last == cpu - 1 && ranges.back().chip == chip) {
      ranges.back().last = cpu;
    } else {
      ranges.push_back({cpu, cpu, chip});
    }
  }
  return ranges;
}

}  // namespace

std::string chipOfCpu(std::string_view cpu) {
  static const std::vector<ChipRange> ranges = chipRanges();
  // One chip (most machines): a constant.
  if (ranges.size() == 1) return std::to_string(ranges.front().chip);
  const std::string c = "(" + std::string(cpu) + ")";
  std::string expr;
  for (const ChipRange& r : ranges) {
    expr += r.first == r.last ? c + " == " + std::to_string(r.first)
                              : c + " >= " + std::to_string(r.first) + " && " + c +
                                    " <= " + std::to_string(r.last);
    expr += " ? " + std::to_string(r.chip) + " : ";
  }
  return "(" + expr + "-1)";
}

}  // namespace dtrace::driver
