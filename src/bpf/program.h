// A loaded (verified) BPF program. The kernel keeps it alive while this
// object or any attachment holds a reference.
#pragma once

#include <linux/bpf.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "bpf/insn.h"
#include "util/fd.h"
#include "util/result.h"

namespace dtrace::bpf {

// What kind of program to load: its type and, for the program types that
// need one (a multi-uprobe link's program), the attach type it is verified for.
struct ProgramKind {
  ProgramKind(bpf_prog_type t) : type(t) {}  // NOLINT: a type alone is a kind
  ProgramKind(bpf_prog_type t, bpf_attach_type a) : type(t), expectedAttach(a), hasAttach(true) {}
  // A BTF-typed tracepoint program (tp_btf): its arguments are the
  // kernel's typed pointers, which helpers taking a trusted task accept.
  // `btfId` is the tracepoint's btf_trace_NAME typedef in vmlinux.
  static ProgramKind btfTracepoint(uint32_t btfId) {
    ProgramKind k(BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP);
    k.attachBtfId = btfId;
    return k;
  }
  bpf_prog_type type;
  bpf_attach_type expectedAttach{};
  bool hasAttach = false;
  uint32_t attachBtfId = 0;
};

class Program {
 public:
  // Loads the instructions with license "GPL". On failure the load is
  // repeated with the verifier log enabled; the error message is the errno
  // text ("Permission denied") followed, on the next lines, by the tail of
  // the verifier log. The caller prefixes what failed, e.g.
  // "failed to load program for syscall::read:entry: " + message.
  // With `verbose`, the log is captured even on success. The full log goes
  // to *verifierLog when it is not null.
  static Result<Program> load(ProgramKind kind, const std::string& name,
                              std::span<const Insn> insns, std::string* verifierLog = nullptr,
                              bool verbose = false);

  // Runs the program once, synchronously, on the calling CPU (BPF_PROG_RUN)
  // and returns its r0. For BPF_PROG_TYPE_RAW_TRACEPOINT programs `args` is
  // the context (the probe arguments). This fires a probe without attaching
  // anything, e.g. BEGIN and END from the consumer: microseconds, where a
  // uprobe costs ~10 ms to attach and ~100 ms to detach on this kernel.
  // With `cpu`, it runs there instead (raw tracepoint programs only).
  Result<uint32_t> run(std::span<const uint64_t> args = {},
                       std::optional<uint32_t> cpu = std::nullopt) const;

  int fd() const { return fd_.get(); }
  const std::string& name() const { return name_; }
  size_t instructionCount() const { return instructionCount_; }

 private:
  Program(Fd fd, std::string name, size_t count)
      : fd_(std::move(fd)), name_(std::move(name)), instructionCount_(count) {}

  Fd fd_;
  std::string name_;
  size_t instructionCount_ = 0;
};

// Program::run for a program this process holds only by descriptor (a
// timer thread's own duplicate): true with its r0 in *result (when not
// null), else false with errno set.
bool runProgram(int progFd, std::span<const uint64_t> args, std::optional<uint32_t> cpu,
                uint32_t* result = nullptr);

}  // namespace dtrace::bpf
