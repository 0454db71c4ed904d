#include "bpf/attach.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <fstream>
#include <string>
#include <system_error>
#include <thread>

#include "bpf/errors.h"

namespace dtrace::bpf {
namespace {

Error attachError(const std::string& what, int err) {
  if (isPermissionError(err)) {
    return makeError(what + ": permission denied (" + errnoText(err) +
                     "; tracing needs root, or CAP_BPF and CAP_PERFMON)");
  }
  return makeError(what + ": " + errnoText(err));
}

int perfEventOpen(const perf_event_attr& attr, int pid, int cpu) {
  return static_cast<int>(syscall(__NR_perf_event_open, &attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC));
}

Result<std::string> readFirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) {
    const int err = errno;
    return makeError("cannot read " + path + ": " + errnoText(err != 0 ? err : EIO));
  }
  return line;
}

// A perf PMU format file holds e.g. "config:0" or "config:32-63": the first
// bit of the field in attr.config.
Result<int> pmuFormatBit(const std::string& pmu, const std::string& field) {
  const std::string path = "/sys/bus/event_source/devices/" + pmu + "/format/" + field;
  Result<std::string> line = readFirstLine(path);
  if (!line) return line.error();
  int bit = -1;
  if (sscanf(line->c_str(), "config:%d", &bit) != 1 || bit < 0 || bit > 63) {
    return makeError("unexpected contents of " + path + ": " + *line);
  }
  return bit;
}

struct UprobePmu {
  int type = -1;
  int retprobeBit = -1;
  int refCtrShift = -1;  // -1: kernel cannot maintain USDT semaphores
  std::string error;
};

const UprobePmu& uprobePmu() {
  static const UprobePmu pmu = [] {
    UprobePmu out;
    Result<std::string> type = readFirstLine("/sys/bus/event_source/devices/uprobe/type");
    if (!type) {
      out.error = "the kernel has no uprobe PMU (" + type.error().message + ")";
      return out;
    }
    out.type = std::stoi(*type);
    Result<int> retprobe = pmuFormatBit("uprobe", "retprobe");
    if (!retprobe) {
      out.error = retprobe.error().message;
      return out;
    }
    out.retprobeBit = *retprobe;
    Result<int> refCtr = pmuFormatBit("uprobe", "ref_ctr_offset");
    if (refCtr) out.refCtrShift = *refCtr;
    return out;
  }();
  return pmu;
}

int silentLibbpfPrint(libbpf_print_level, const char*, va_list) { return 0; }

}  // namespace

Link& Link::operator=(Link&& other) noexcept {
  if (this != &other) {
    detach();
    perfEvent_ = std::move(other.perfEvent_);
    bpfLink_ = std::move(other.bpfLink_);
  }
  return *this;
}

void Link::detach() {
  if (perfEvent_.valid()) ioctl(perfEvent_.get(), PERF_EVENT_IOC_DISABLE, 0);
  bpfLink_.reset();
  perfEvent_.reset();
}

Result<void> prepareProcess() {
  libbpf_set_print(silentLibbpfPrint);
  const rlimit infinite{RLIM_INFINITY, RLIM_INFINITY};
  // Kernels since 5.11 account BPF memory to cgroups and ignore this limit;
  // failing to raise it only matters on older ones, so it is not fatal.
  (void)setrlimit(RLIMIT_MEMLOCK, &infinite);
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &files) != 0) {
      const int err = errno;
      return makeError("cannot raise the open file limit: " + errnoText(err));
    }
  }
  return {};
}

std::string tracefsRoot() {
  static const std::string root = [] {
    struct stat st {};
    if (stat("/sys/kernel/tracing/events", &st) == 0) return std::string("/sys/kernel/tracing");
    if (stat("/sys/kernel/debug/tracing/events", &st) == 0) {
      return std::string("/sys/kernel/debug/tracing");
    }
    // A system booted without systemd's sys-kernel-tracing.mount has no
    // tracefs mounted: mount it where the kernel provides its mount point,
    // as systemd would (root only; otherwise each lookup says what is
    // missing).
    (void)mount("nodev", "/sys/kernel/tracing", "tracefs", 0, nullptr);
    return std::string("/sys/kernel/tracing");
  }();
  return root;
}

Result<int> tracepointId(const std::string& category, const std::string& event) {
  const std::string path = tracefsRoot() + "/events/" + category + "/" + event + "/id";
  std::ifstream in(path);
  int id = -1;
  if (!in || !(in >> id)) {
    const int err = errno;
    if (isPermissionError(err)) {
      return attachError("cannot read tracepoint id " + path, err);
    }
    return makeError("tracepoint " + category + ":" + event + " does not exist (no " + path + ")");
  }
  return id;
}

Result<Link> attachPerfEvent(int progFd, const perf_event_attr& attr, int pid, int cpu) {
  Fd event(perfEventOpen(attr, pid, cpu));
  if (!event) return attachError("failed to open perf event", errno);
  if (ioctl(event.get(), PERF_EVENT_IOC_SET_BPF, progFd) != 0) {
    return attachError("failed to attach BPF program to perf event", errno);
  }
  if (ioctl(event.get(), PERF_EVENT_IOC_ENABLE, 0) != 0) {
    return attachError("failed to enable perf event", errno);
  }
  return Link(std::move(event), Fd());
}

Result<Link> attachTracepoint(int progFd, int tracepointId) {
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_TRACEPOINT;
  attr.config = static_cast<uint64_t>(tracepointId);
  attr.sample_period = 1;
  attr.wakeup_events = 1;
  // One event on CPU 0 suffices: the program runs wherever the tracepoint
  // fires, whatever CPU the event is bound to.
  Result<Link> link = attachPerfEvent(progFd, attr, -1, 0);
  if (!link) {
    return makeError("tracepoint id " + std::to_string(tracepointId) + ": " + link.error().message);
  }
  return link;
}

Result<Link> attachRawTracepoint(int progFd, const std::string& name) {
  const int fd = bpf_raw_tracepoint_open(name.c_str(), progFd);
  if (fd < 0) return attachError("failed to attach to raw tracepoint " + name, errno);
  return Link(Fd(), Fd(fd));
}

Result<Link> attachRawTracepoint(int progFd, const std::string& name, uint64_t cookie) {
  bpf_raw_tp_opts opts{};
  opts.sz = sizeof opts;
  opts.tp_name = name.c_str();
  opts.cookie = cookie;
  const int fd = bpf_raw_tracepoint_open_opts(progFd, &opts);
  if (fd < 0) return attachError("failed to attach to raw tracepoint " + name, errno);
  return Link(Fd(), Fd(fd));
}

Result<Link> attachBtfTracepoint(int progFd) {
  const int fd = bpf_raw_tracepoint_open(nullptr, progFd);
  if (fd < 0) return attachError("failed to attach to its tracepoint", errno);
  return Link(Fd(), Fd(fd));
}

Result<Link> attachUprobe(int progFd, const std::string& binaryPath, const UprobeSite& site,
                          bool isReturn, int pid) {
  const UprobePmu& pmu = uprobePmu();
  if (pmu.type < 0) return makeError(pmu.error);
  if (site.refCtrOffset != 0 && pmu.refCtrShift < 0) {
    return makeError("this kernel cannot maintain USDT semaphores (no uprobe ref_ctr_offset)");
  }
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = static_cast<uint32_t>(pmu.type);
  attr.sample_period = 1;
  attr.wakeup_events = 1;
  attr.config1 = reinterpret_cast<uint64_t>(binaryPath.c_str());  // uprobe_path
  attr.config2 = site.fileOffset;                                 // probe_offset
  if (isReturn) attr.config |= 1ULL << pmu.retprobeBit;
  if (site.refCtrOffset != 0) attr.config |= site.refCtrOffset << pmu.refCtrShift;
  auto failed = [&](const std::string& what, int err) {
    char offset[32];
    snprintf(offset, sizeof offset, "0x%llx", static_cast<unsigned long long>(site.fileOffset));
    return attachError(std::string(isReturn ? "uretprobe" : "uprobe") + " at " + binaryPath + ":" +
                           offset + ": " + what,
                       err);
  };
  // All processes: pid -1 on CPU 0, which (as for tracepoints) still fires
  // on every CPU. One process: that pid on any CPU.
  Fd event(perfEventOpen(attr, pid, pid < 0 ? 0 : -1));
  if (!event) return failed("failed to open perf event", errno);
  // A BPF link (rather than PERF_EVENT_IOC_SET_BPF) carries the cookie.
  LIBBPF_OPTS(bpf_link_create_opts, opts);
  opts.perf_event.bpf_cookie = site.cookie;
  Fd link(bpf_link_create(progFd, event.get(), BPF_PERF_EVENT, &opts));
  if (!link) return failed("failed to attach BPF program", errno);
  return Link(std::move(event), std::move(link));
}

bool uprobeMultiSupported() {
  static const bool supported = [] {
    // A program verified for multi-uprobe links loads only where they
    // exist; a link on a path that is no regular file then fails with
    // EBADF rather than EINVAL.
    const bpf_insn insns[] = {
        {BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0},
        {BPF_JMP | BPF_EXIT, 0, 0, 0, 0},
    };
    LIBBPF_OPTS(bpf_prog_load_opts, load);
    load.expected_attach_type = BPF_TRACE_UPROBE_MULTI;
    Fd prog(bpf_prog_load(BPF_PROG_TYPE_KPROBE, "dt_probe", "GPL", insns, 2, &load));
    if (!prog) return false;
    const unsigned long offset = 0;
    LIBBPF_OPTS(bpf_link_create_opts, opts);
    opts.uprobe_multi.path = "/";
    opts.uprobe_multi.offsets = &offset;
    opts.uprobe_multi.cnt = 1;
    Fd link(bpf_link_create(prog.get(), 0, BPF_TRACE_UPROBE_MULTI, &opts));
    return !link && errno == EBADF;
  }();
  return supported;
}

Result<Link> attachUprobeMulti(int progFd, const std::string& binaryPath,
                               std::span<const UprobeSite> sites, bool isReturn, int pid) {
  std::vector<unsigned long> offsets, refCtrOffsets;
  std::vector<__u64> cookies;
  bool anyRefCtr = false;
  for (const UprobeSite& s : sites) {
    offsets.push_back(s.fileOffset);
    refCtrOffsets.push_back(s.refCtrOffset);
    cookies.push_back(s.cookie);
    anyRefCtr = anyRefCtr || s.refCtrOffset != 0;
  }
  LIBBPF_OPTS(bpf_link_create_opts, opts);
  opts.uprobe_multi.path = binaryPath.c_str();
  opts.uprobe_multi.offsets = offsets.data();
  opts.uprobe_multi.ref_ctr_offsets = anyRefCtr ? refCtrOffsets.data() : nullptr;
  opts.uprobe_multi.cookies = cookies.data();
  opts.uprobe_multi.cnt = static_cast<uint32_t>(sites.size());
  opts.uprobe_multi.flags = isReturn ? BPF_F_UPROBE_MULTI_RETURN : 0;
  opts.uprobe_multi.pid = pid < 0 ? 0 : pid;
  Fd link(bpf_link_create(progFd, 0, BPF_TRACE_UPROBE_MULTI, &opts));
  if (!link) {
    return attachError(std::string(isReturn ? "uretprobes" : "uprobes") + " in " + binaryPath +
                           " (" + std::to_string(sites.size()) + " sites)",
                       errno);
  }
  return Link(Fd(), std::move(link));
}

void detachAll(std::vector<Link>& links) {
  // Each detach may wait for a grace period of its own; a few threads let
  // those waits overlap. Links that detach at once are not worth a thread.
  constexpr size_t kThreads = 8;
  if (links.size() < 2) {
    links.clear();
    return;
  }
  std::vector<std::thread> threads;
  const size_t per = (links.size() + kThreads - 1) / kThreads;
  for (size_t first = 0; first < links.size(); first += per) {
    const size_t last = std::min(links.size(), first + per);
    try {
      threads.emplace_back([&links, first, last] {
        for (size_t i = first; i < last; i++) links[i].detach();
      });
    } catch (const std::system_error&) {
      for (size_t i = first; i < last; i++) links[i].detach();
    }
  }
  for (std::thread& t : threads) t.join();
  links.clear();
}

std::optional<LinkIds> linkIds(int linkFd) {
  bpf_link_info info{};
  uint32_t len = sizeof info;
  if (bpf_obj_get_info_by_fd(linkFd, &info, &len) != 0) return std::nullopt;
  return LinkIds{info.id, info.prog_id};
}

Fd openLinkById(uint32_t id) { return Fd(bpf_link_get_fd_by_id(id)); }

}  // namespace dtrace::bpf
