#include "sym/mapping_events.h"

#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "util/cpu_list.h"
#include "util/fd.h"

namespace dtrace::sym {

namespace {

constexpr size_t kPageSize = 4096;
constexpr size_t kRingPages = 64;  // a power of two: 256 KiB of events per CPU

// The kernel's record layouts (after perf_event_header), each followed by
// the sample_id fields: here only the time (PERF_SAMPLE_TIME).
struct Mmap2Record {
  uint32_t pid, tid;
  uint64_t addr, len, pgoff;
  uint32_t major, minor;
  uint64_t inode, inodeGeneration;
  uint32_t prot, flags;
  // char filename[], then the time
};
struct ForkRecord {
  uint32_t pid, ppid, tid, ptid;
  uint64_t time;
};
struct CommRecord {
  uint32_t pid, tid;
  // char comm[], then the time
};

struct TimedEvent {
  uint64_t time;
  MappingEvent event;
};

}  // namespace

struct MappingEvents::Ring {
  Fd fd;
  void* base = MAP_FAILED;
  std::vector<uint8_t> record;  // a record copied out of the ring, where it wraps
};

Result<std::unique_ptr<MappingEvents>> MappingEvents::open() {
  std::unique_ptr<MappingEvents> events(new MappingEvents());
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_DUMMY;
  attr.mmap = 1;  // executable mappings only (mmap_data stays 0)
  attr.mmap2 = 1;
  attr.comm = 1;
  attr.comm_exec = 1;
  attr.task = 1;
  attr.sample_id_all = 1;
  attr.sample_type = PERF_SAMPLE_TIME;
  attr.watermark = 1;
  attr.wakeup_watermark = kRingPages * kPageSize / 4;
  for (int cpu : onlineCpus()) {
    Ring ring;
    ring.fd.reset(
        static_cast<int>(syscall(__NR_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC)));
    if (!ring.fd) {
      return makeError(std::string("cannot follow process mappings: perf_event_open: ") +
                       std::strerror(errno));
    }
    ring.base = mmap(nullptr, (kRingPages + 1) * kPageSize, PROT_READ | PROT_WRITE, MAP_SHARED,
                     ring.fd.get(), 0);
    if (ring.base == MAP_FAILED) {
      const int err = errno;
      return makeError(std::string("cannot follow process mappings: mmap: ") + std::strerror(err));
    }
    events->rings_.push_back(std::move(ring));
  }
  return events;
}

MappingEvents::~MappingEvents() {
  for (Ring& r : rings_) {
    if (r.base != MAP_FAILED) munmap(r.base, (kRingPages + 1) * kPageSize);
  }
}

std::vector<int> MappingEvents::pollFds() const {
  std::vector<int> fds;
  for (const Ring& r : rings_) fds.push_back(r.fd.get());
  return fds;
}

bool MappingEvents::drain(const std::function<void(const MappingEvent&)>& sink) {
  std::vector<TimedEvent> events;
  bool complete = true;
  for (Ring& ring : rings_) {
    auto* page = static_cast<perf_event_mmap_page*>(ring.base);
    const uint8_t* data = static_cast<const uint8_t*>(ring.base) + kPageSize;
    const uint64_t size = kRingPages * kPageSize;
    const uint64_t head = __atomic_load_n(&page->data_head, __ATOMIC_ACQUIRE);
    uint64_t tail = page->data_tail;
    while (tail < head) {
      perf_event_header header;
      for (size_t i = 0; i < sizeof header; i++) {
        reinterpret_cast<uint8_t*>(&header)[i] = data[(tail + i) % size];
      }
      if (header.size < sizeof header) break;
      ring.record.resize(header.size);
      for (size_t i = 0; i < header.size; i++) ring.record[i] = data[(tail + i) % size];
      tail += header.size;
      const uint8_t* body = ring.record.data() + sizeof header;
      const size_t bodySize = header.size - sizeof header;
      uint64_t time = 0;
      if (bodySize >= sizeof time) std::memcpy(&time, body + bodySize - sizeof time, sizeof time);
      TimedEvent e{time, {}};
      switch (header.type) {
        case PERF_RECORD_MMAP2: {
          Mmap2Record m;
          if (bodySize < sizeof m + sizeof time) continue;
          std::memcpy(&m, body, sizeof m);
          const char* name = reinterpret_cast<const char*>(body + sizeof m);
          const size_t nameRoom = bodySize - sizeof m - sizeof time;
          e.event.kind = MappingEvent::Kind::Mapped;
          e.event.pid = static_cast<int>(m.pid);
          e.event.mapping = {
              m.addr, m.addr + m.len, m.pgoff, m.inode, std::string(name, strnlen(name, nameRoom)),
              true};
          e.event.mapping.device = uint64_t{m.major} << 32 | m.minor;
          // perf's name for anonymous memory; /proc/PID/maps leaves it empty.
          if (e.event.mapping.path == "//anon") e.event.mapping.path.clear();
          break;
        }
        case PERF_RECORD_FORK: {
          ForkRecord f;
          if (bodySize < sizeof f) continue;
          std::memcpy(&f, body, sizeof f);
          if (f.pid == f.ppid) continue;  // a new thread, not a new process
          e.event = {
              MappingEvent::Kind::Forked, static_cast<int>(f.pid), static_cast<int>(f.ppid), {}};
          break;
        }
        case PERF_RECORD_COMM: {
          CommRecord c;
          if (!(header.misc & PERF_RECORD_MISC_COMM_EXEC) || bodySize < sizeof c) continue;
          std::memcpy(&c, body, sizeof c);
          e.event = {MappingEvent::Kind::Execed, static_cast<int>(c.pid), 0, {}};
          break;
        }
        case PERF_RECORD_LOST:
          complete = false;
          continue;
        default:
          continue;
      }
      events.push_back(std::move(e));
    }
    __atomic_store_n(&page->data_tail, tail, __ATOMIC_RELEASE);
  }
  // Each CPU's ring is in order; a process may run on any of them.
  std::stable_sort(events.begin(), events.end(),
                   [](const TimedEvent& a, const TimedEvent& b) { return a.time < b.time; });
  for (const TimedEvent& e : events) sink(e.event);
  return complete;
}

}  // namespace dtrace::sym
