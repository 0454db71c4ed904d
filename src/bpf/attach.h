// Attaching loaded programs to tracepoints, perf events and uprobes. Every
// attachment is a Link: destroying it disables and closes the event, so
// nothing stays attached once the consumer is gone.
#pragma once

#include <linux/perf_event.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "util/fd.h"
#include "util/result.h"

namespace dtrace::bpf {

class Link {
 public:
  Link() = default;
  Link(Fd perfEvent, Fd bpfLink) : perfEvent_(std::move(perfEvent)), bpfLink_(std::move(bpfLink)) {}
  Link(Link&&) noexcept = default;
  Link& operator=(Link&& other) noexcept;
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;
  ~Link() { detach(); }

  // Disables the event and closes both fds; idempotent.
  void detach();

  int perfEventFd() const { return perfEvent_.get(); }
  int bpfLinkFd() const { return bpfLink_.get(); }
  bool attached() const { return perfEvent_.valid() || bpfLink_.valid(); }

 private:
  Fd perfEvent_;
  Fd bpfLink_;
};

// Raises RLIMIT_MEMLOCK to infinity (older kernels charge BPF memory to it)
// and RLIMIT_NOFILE to its hard limit (one perf event fd per probe and CPU).
// Also silences libbpf's own stderr printing: errors come back as values.
// Safe to call more than once.
Result<void> prepareProcess();

// Where tracefs is mounted: "/sys/kernel/tracing", or the debugfs location.
std::string tracefsRoot();

// The numeric id of tracepoint category:event, from tracefs .../events/C/E/id.
Result<int> tracepointId(const std::string& category, const std::string& event);

// Attaches to a tracepoint for all CPUs and processes. progFd must be a
// BPF_PROG_TYPE_TRACEPOINT program.
Result<Link> attachTracepoint(int progFd, int tracepointId);

// Attaches a BPF_PROG_TYPE_RAW_TRACEPOINT program to the raw tracepoint
// `name` (e.g. "sys_enter", "sched_switch"). Unlike attachTracepoint, whose
// detach waits ~45 ms per tracepoint for the kernel to synchronize, this
// detaches in well under a millisecond.
Result<Link> attachRawTracepoint(int progFd, const std::string& name);
// The same with an attach cookie the program reads (bpf_get_attach_cookie;
// raw tracepoint cookies need Linux 6.10).
Result<Link> attachRawTracepoint(int progFd, const std::string& name, uint64_t cookie);

// Attaches a BTF-typed tracepoint program (ProgramKind::btfTracepoint) to
// the tracepoint it was loaded for.
Result<Link> attachBtfTracepoint(int progFd);

// Opens the described perf event on (pid, cpu), attaches the program and
// enables the event.
Result<Link> attachPerfEvent(int progFd, const perf_event_attr& attr, int pid, int cpu);

// One place in an object where a uprobe goes, and the cookie the program
// reads there (bpf_get_attach_cookie).
struct UprobeSite {
  uint64_t fileOffset = 0;
  uint64_t refCtrOffset = 0;  // file offset of a USDT semaphore the kernel maintains, or 0
  uint64_t cookie = 0;
};

// Attaches a BPF_PROG_TYPE_KPROBE program to a uprobe (or uretprobe) at one
// site of binaryPath, for one process or all (pid -1), through a perf event.
Result<Link> attachUprobe(int progFd, const std::string& binaryPath, const UprobeSite& site,
                          bool isReturn, int pid = -1);

// Whether the kernel offers multi-uprobe links (BPF_TRACE_UPROBE_MULTI,
// Linux 6.6), which attach thousands of sites in one call and detach them
// in one grace period. Probed once.
bool uprobeMultiSupported();

// Attaches a program loaded for BPF_TRACE_UPROBE_MULTI to every site of one
// object in one link, for one process or all (pid -1).
Result<Link> attachUprobeMulti(int progFd, const std::string& binaryPath,
                               std::span<const UprobeSite> sites, bool isReturn, int pid = -1);

// The ids the kernel knows a BPF link and its program by.
struct LinkIds {
  uint32_t link = 0;
  uint32_t program = 0;
};

// The ids of the BPF link `linkFd`; empty with errno set when the kernel
// cannot tell.
std::optional<LinkIds> linkIds(int linkFd);

// A new descriptor for the BPF link whose id is `id`; invalid (errno set)
// when there is none, or it is not ours to open.
Fd openLinkById(uint32_t id);

// Detaches every link, those that wait for the kernel's grace periods
// (uprobes: tens of milliseconds each) side by side rather than one after
// another.
void detachAll(std::vector<Link>& links);

}  // namespace dtrace::bpf
