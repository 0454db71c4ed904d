#include "sym/process_maps.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <fstream>

#include "util/fd.h"

namespace dtrace::sym {

namespace {

// The next space-separated word of `text`, removed from it.
std::string_view nextWord(std::string_view& text) {
  const size_t start = text.find_first_not_of(' ');
  if (start == std::string_view::npos) {
    text = {};
    return {};
  }
  text.remove_prefix(start);
  const size_t end = std::min(text.find(' '), text.size());
  std::string_view word = text.substr(0, end);
  text.remove_prefix(end);
  return word;
}

bool parseHex(std::string_view text, uint64_t& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out, 16);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

bool parseMapsLine(std::string_view line, Mapping& out) {
  std::string_view range = nextWord(line), perms = nextWord(line), offset = nextWord(line);
  std::string_view device = nextWord(line), inode = nextWord(line);
  const size_t dash = range.find('-');
  if (dash == std::string_view::npos || perms.size() < 4 ||
      !parseHex(range.substr(0, dash), out.start) || !parseHex(range.substr(dash + 1), out.end) ||
      !parseHex(offset, out.offset)) {
    return false;
  }
  // "fe:01": with the inode, the file's identity whatever path maps it.
  const size_t colon = device.find(':');
  uint64_t major = 0, minor = 0;
  if (colon != std::string_view::npos && parseHex(device.substr(0, colon), major) &&
      parseHex(device.substr(colon + 1), minor)) {
    out.device = major << 32 | minor;
  } else {
    out.device = 0;
  }
  auto [end, ec] = std::from_chars(inode.data(), inode.data() + inode.size(), out.inode);
  if (ec != std::errc()) return false;
  out.executable = perms[2] == 'x';
  out.readOnly = perms[0] == 'r' && perms[1] == '-' && perms[2] == '-';
  const size_t pathStart = line.find_first_not_of(' ');
  out.path = pathStart == std::string_view::npos ? "" : std::string(line.substr(pathStart));
  constexpr std::string_view kDeleted = " (deleted)";
  if (out.path.ends_with(kDeleted)) out.path.resize(out.path.size() - kDeleted.size());
  return true;
}

std::vector<Mapping> readExecutableMappings(int pid) {
  std::vector<Mapping> mappings;
  std::ifstream in("/proc/" + std::to_string(pid) + "/maps");
  std::string line;
  while (std::getline(in, line)) {
    Mapping m;
    if (parseMapsLine(line, m) && m.executable) mappings.push_back(std::move(m));
  }
  return mappings;
}

void faultInReadOnlyData(int pid, const std::string& path) {
  const std::string proc = "/proc/" + std::to_string(pid);
  std::ifstream in(proc + "/maps");
  const Fd mem(open((proc + "/mem").c_str(), O_RDONLY | O_CLOEXEC));
  if (!mem) return;
  constexpr uint64_t kPage = 4096;
  std::string line;
  while (std::getline(in, line)) {
    Mapping m;
    if (!parseMapsLine(line, m) || !m.readOnly || m.path != path) continue;
    char byte;
    for (uint64_t at = m.start; at < m.end; at += kPage) {
      if (pread(mem.get(), &byte, 1, static_cast<off_t>(at)) != 1) break;
    }
  }
}

bool isZombie(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  std::getline(in, stat);
  const size_t comm = stat.rfind(')');  // the state follows the command name
  return comm != std::string::npos && comm + 2 < stat.size() && stat[comm + 2] == 'Z';
}

bool processExists(int pid) { return (kill(pid, 0) == 0 || errno != ESRCH) && !isZombie(pid); }

std::string executablePath(int pid) {
  char exe[4096] = {};
  const std::string link = "/proc/" + std::to_string(pid) + "/exe";
  const ssize_t n = readlink(link.c_str(), exe, sizeof exe - 1);
  std::string path = n > 0 ? std::string(exe, static_cast<size_t>(n)) : "";
  constexpr std::string_view kDeleted = " (deleted)";
  if (path.ends_with(kDeleted)) path.resize(path.size() - kDeleted.size());
  return path;
}

std::string_view baseName(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

}  // namespace dtrace::sym
