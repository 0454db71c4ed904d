#include "util/cpu_list.h"

#include <cctype>
#include <fstream>
#include <string>

namespace dtrace {

std::vector<int> parseCpuList(std::string_view text) {
  std::vector<int> cpus;
  size_t i = 0;
  auto number = [&](int& out) {
    size_t start = i;
    out = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      out = out * 10 + (text[i++] - '0');
    }
    return i > start;
  };
  while (i < text.size()) {
    int lo, hi;
    if (!number(lo)) break;
    hi = lo;
    if (i < text.size() && text[i] == '-') {
      ++i;
      if (!number(hi)) break;
    }
    for (int c = lo; c <= hi; ++c) cpus.push_back(c);
    if (i < text.size() && text[i] == ',') ++i;
  }
  return cpus;
}

std::vector<int> onlineCpus() {
  std::ifstream in("/sys/devices/system/cpu/online");
  std::string text;
  std::getline(in, text);
  std::vector<int> cpus = parseCpuList(text);
  if (cpus.empty()) cpus.push_back(0);
  return cpus;
}

}  // namespace dtrace
