#include "driver/library_path.h"

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "parse/lexer.h"

namespace dtrace::driver {

namespace {

std::vector<std::string> libraryNames(const std::string& directory) {
  std::vector<std::string> names;
  DIR* dir = opendir(directory.c_str());
  if (!dir) return names;
  while (const dirent* entry = readdir(dir)) {
    std::string_view name = entry->d_name;
    if (name.size() > 2 && name.substr(name.size() - 2) == ".d") names.emplace_back(name);
  }
  closedir(dir);
  std::sort(names.begin(), names.end());  // readdir's order is the file system's
  return names;
}

bool readFile(const std::string& path, std::string& text) {
  std::ifstream in(path);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  text = buffer.str();
  return static_cast<bool>(in) || in.eof();
}

// Depth-first over the dependencies: a library is placed once every
// library it depends on is.
class DependencyOrder {
 public:
  DependencyOrder(std::vector<LibraryFile>& libraries) : libraries_(libraries) {
    for (size_t i = 0; i < libraries.size(); i++) index_[libraries[i].path] = i;
  }

  Result<std::vector<LibraryFile>> sort() {
    state_.assign(libraries_.size(), State::New);
    for (size_t i = 0; i < libraries_.size(); i++) {
      if (auto r = visit(i); !r) return r.error();
    }
    std::vector<LibraryFile> out;
    for (size_t i : order_) out.push_back(std::move(libraries_[i]));
    return out;
  }

 private:
  enum class State { New, Visiting, Placed };

  Result<void> visit(size_t i) {
    if (state_[i] == State::Placed) return {};
    state_[i] = State::Visiting;
    for (const std::string& dependency : libraries_[i].dependsOn) {
      auto found = index_.find(dependency);
      if (found == index_.end()) continue;  // a built-in library
      if (state_[found->second] == State::Visiting) {
        return makeError("Cyclic dependency detected: " + dependency + " => " + libraries_[i].path);
      }
      if (auto r = visit(found->second); !r) return r;
    }
    state_[i] = State::Placed;
    order_.push_back(i);
    return {};
  }

  std::vector<LibraryFile>& libraries_;
  std::map<std::string, size_t> index_;
  std::vector<State> state_;
  std::vector<size_t> order_;
};

}  // namespace

Result<std::vector<LibraryFile>> findLibraries(
    const std::vector<std::string>& directories,
    const std::function<bool(std::string_view)>& isBuiltin) {
  std::vector<LibraryFile> libraries;
  std::set<std::string> namesSeen;
  for (const std::string& directory : directories) {
    for (const std::string& name : libraryNames(directory)) {
      LibraryFile lib;
      lib.path = directory + "/" + name;
      if (namesSeen.count(name) || !readFile(lib.path, lib.text)) continue;
      namesSeen.insert(name);
      for (const parse::PragmaLine& p : parse::scanPragmas(lib.text)) {
        if (p.words.size() >= 3 && p.words[0] == "depends_on" && p.words[1] == "library") {
          lib.dependsOn.push_back(directory + "/" + p.words[2]);
        }
      }
      libraries.push_back(std::move(lib));
    }
  }
  // A dependency names a file beside the library, or a built-in library.
  std::set<std::string> paths;
  for (const LibraryFile& lib : libraries) paths.insert(lib.path);
  for (LibraryFile& lib : libraries) {
    for (std::string& dependency : lib.dependsOn) {
      if (paths.count(dependency)) continue;
      std::string name = dependency.substr(dependency.rfind('/') + 1);
      if (!isBuiltin(name)) {
        return makeError("Invalid library dependency in " + lib.path + ": " + dependency);
      }
      dependency = name;
    }
  }
  return DependencyOrder(libraries).sort();
}

}  // namespace dtrace::driver
