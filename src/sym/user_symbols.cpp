#include "sym/user_symbols.h"

#include <sys/stat.h>

#include "sym/vdso_image.h"

namespace dtrace::sym {

std::shared_ptr<const ObjectFile> UserSymbols::object(const Mapping& mapping) {
  auto [it, added] = objects_.try_emplace({mapping.path, mapping.inode});
  if (added) {
    struct stat st;
    const bool same = stat(mapping.path.c_str(), &st) == 0 && st.st_ino == mapping.inode;
    it->second = same ? ObjectFile::load(mapping.path) : std::make_shared<const ObjectFile>();
  }
  return it->second;
}

const PerfMap& UserSymbols::perfMap(int pid) {
  JitSymbols& jit = perfMaps_[pid];
  struct stat st;
  const int64_t size =
      stat(PerfMap::path(pid).c_str(), &st) == 0 ? static_cast<int64_t>(st.st_size) : -1;
  if (size != jit.fileSize) {
    jit.map = size >= 0 ? PerfMap::read(pid) : PerfMap{};
    jit.fileSize = size;
  }
  return jit.map;
}

std::shared_ptr<const ObjectFile> UserSymbols::mappedObject(const Mapping& mapping) {
  if (mapping.isFile()) return object(mapping);
  // The vDSO: the same image as dtrace's own, if it is as long (a 32-bit
  // process has another).
  const VdsoImage& vdso = vdsoImage();
  if (mapping.path == "[vdso]" && vdso.size == mapping.end - mapping.start) return vdso.object;
  return nullptr;
}

UserSymbol UserSymbols::lookup(int pid, uint64_t address) {
  UserSymbol out;
  const Mapping* mapping = spaces_.find(pid, address);
  if (mapping) {
    out.object = std::string(baseName(mapping->path));
    out.mappingAddress = mapping->start;
    if (std::shared_ptr<const ObjectFile> file = mappedObject(*mapping)) {
      if (std::optional<uint64_t> at = file->fileAddress(*mapping, address)) {
        if (std::optional<FunctionSymbol> f = file->containing(*at)) {
          out.function = std::string(f->name);
          out.functionAddress = address - (*at - f->address);
        }
      }
      return out;
    }
  }
  // Code in no file: a JIT's, if it says what it compiled there.
  if (!mapping || mapping->path.empty()) {
    if (std::optional<JitSymbol> j = perfMap(pid).containing(address)) {
      out.function = std::string(j->name);
      out.functionAddress = j->address;
    }
  }
  return out;
}

}  // namespace dtrace::sym
