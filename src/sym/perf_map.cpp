#include "sym/perf_map.h"

#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

namespace dtrace::sym {

namespace {

bool parseHexWord(std::string_view& line, uint64_t& out) {
  const size_t start = line.find_first_not_of(' ');
  if (start == std::string_view::npos) return false;
  line.remove_prefix(start);
  if (line.starts_with("0x")) line.remove_prefix(2);
  auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), out, 16);
  if (ec != std::errc() || end == line.data() ||
      (end != line.data() + line.size() && *end != ' ')) {
    return false;
  }
  line.remove_prefix(static_cast<size_t>(end - line.data()));
  return true;
}

}  // namespace

PerfMap PerfMap::parse(std::string text) {
  PerfMap map;
  map.text_ = std::move(text);
  std::string_view rest = map.text_;
  struct Numbered {
    Entry entry;
    size_t line;
  };
  std::vector<Numbered> lines;
  while (!rest.empty()) {
    const size_t eol = std::min(rest.find('\n'), rest.size());
    std::string_view line = rest.substr(0, eol);
    rest.remove_prefix(std::min(eol + 1, rest.size()));
    Entry e;
    if (!parseHexWord(line, e.address) || !parseHexWord(line, e.size) || e.size == 0) continue;
    const size_t name = line.find_first_not_of(' ');
    if (name == std::string_view::npos) continue;
    e.nameOffset = static_cast<uint32_t>(line.data() + name - map.text_.data());
    e.nameLength = static_cast<uint32_t>(line.size() - name);
    lines.push_back({e, lines.size()});
  }
  // Code can be compiled again at the same address: the last line wins.
  std::stable_sort(lines.begin(), lines.end(), [](const Numbered& a, const Numbered& b) {
    return a.entry.address != b.entry.address ? a.entry.address < b.entry.address : a.line > b.line;
  });
  for (const Numbered& n : lines) {
    if (map.entries_.empty() || map.entries_.back().address != n.entry.address) {
      map.entries_.push_back(n.entry);
    }
  }
  return map;
}

std::string PerfMap::path(int pid) { return "/tmp/perf-" + std::to_string(pid) + ".map"; }

PerfMap PerfMap::read(int pid) {
  const std::string file = path(pid);
  struct stat st, process;
  if (stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
  const bool owned =
      st.st_uid == 0 || (stat(("/proc/" + std::to_string(pid)).c_str(), &process) == 0 &&
                         process.st_uid == st.st_uid);
  if (!owned) return {};
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return parse(std::move(text).str());
}

std::optional<JitSymbol> PerfMap::containing(uint64_t address) const {
  auto it = std::upper_bound(entries_.begin(), entries_.end(), address,
                             [](uint64_t a, const Entry& e) { return a < e.address; });
  if (it == entries_.begin()) return std::nullopt;
  const Entry& e = *std::prev(it);
  if (address - e.address >= e.size) return std::nullopt;
  return JitSymbol{std::string_view(text_).substr(e.nameOffset, e.nameLength), e.address};
}

}  // namespace dtrace::sym
