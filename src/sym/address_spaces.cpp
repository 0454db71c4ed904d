#include "sym/address_spaces.h"

namespace dtrace::sym {

namespace {

// An address in no known mapping reads /proc/PID/maps again, at most this
// often per process (a JIT's or a broken frame's address is in no file).
constexpr std::chrono::milliseconds kRereadInterval{100};
// Fork chains looked through for a child's inherited mappings.
constexpr int kMaxForkDepth = 16;

bool sameMapping(const Mapping& a, const Mapping& b) {
  return a.start == b.start && a.end == b.end && a.offset == b.offset && a.inode == b.inode &&
         a.path == b.path;
}

}  // namespace

void AddressSpaces::apply(const MappingEvent& event) {
  Space& space = spaces_[event.pid];
  switch (event.kind) {
    case MappingEvent::Kind::Mapped:
      space.mappings.push_back(event.mapping);
      break;
    case MappingEvent::Kind::Forked:
      space = Space{};
      space.parent = event.parent;
      space.execSeen = spaces_[event.parent].execSeen;
      break;
    case MappingEvent::Kind::Execed:
      space = Space{};
      space.execSeen = true;
      break;
  }
}

void AddressSpaces::note(int pid) {
  Space& space = spaces_[pid];
  if (!space.execSeen && !space.read) readMaps(pid, space);
}

void AddressSpaces::readMaps(int pid, Space& space) {
  space.read = true;
  space.lastRead = std::chrono::steady_clock::now();
  for (Mapping& m : readExecutableMappings(pid)) {
    bool known = false;
    for (const Mapping& old : space.mappings) known = known || sameMapping(old, m);
    if (!known) space.mappings.push_back(std::move(m));
  }
}

const Mapping* AddressSpaces::findKnown(int pid, uint64_t address) const {
  for (int depth = 0; pid != 0 && depth < kMaxForkDepth; depth++) {
    auto it = spaces_.find(pid);
    if (it == spaces_.end()) return nullptr;
    const std::vector<Mapping>& mappings = it->second.mappings;
    for (auto m = mappings.rbegin(); m != mappings.rend(); ++m) {
      if (m->contains(address)) return &*m;
    }
    pid = it->second.parent;
  }
  return nullptr;
}

const Mapping* AddressSpaces::find(int pid, uint64_t address) {
  note(pid);
  if (const Mapping* m = findKnown(pid, address)) return m;
  Space& space = spaces_[pid];
  if (std::chrono::steady_clock::now() - space.lastRead < kRereadInterval) return nullptr;
  readMaps(pid, space);
  return findKnown(pid, address);
}

}  // namespace dtrace::sym
