// What the sym stage's tests share: running a shell command, reading a
// symbol's value with nm, and a temporary directory removed afterwards.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace dtrace::sym::test_support {

// The output of a shell command, or "" when it fails.
inline std::string run(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (!p) return out;
  char buf[256];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  return pclose(p) == 0 ? out : std::string();
}

// A symbol's value in an ELF file, as nm lists it (0: not listed).
inline uint64_t nmValue(const std::string& file, const std::string& name) {
  const std::string line = run("nm -P '" + file + "' | grep '^" + name + " '");
  if (line.empty()) return 0;
  return std::stoull(line.substr(line.find(' ', name.size() + 1) + 1), nullptr, 16);
}

class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/dtrace-sym-test.XXXXXX";
    path_ = mkdtemp(pattern);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace dtrace::sym::test_support
