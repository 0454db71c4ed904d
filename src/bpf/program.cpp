#include "bpf/program.h"

#include <bpf/bpf.h>
#include <sys/utsname.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "bpf/errors.h"
#include "bpf/subprogram_btf.h"

namespace dtrace::bpf {
namespace {

constexpr size_t kInitialLogSize = 1 << 20;
constexpr size_t kMaxLogSize = 256u << 20;
// Enough of the log to show the failing path; the whole log is available
// through the verifierLog out-parameter.
constexpr size_t kLogLinesInError = 60;
// BPF_COMPLEXITY_LIMIT_INSNS: the most instructions the kernel loads (the
// verifier refuses a larger program with E2BIG, before reading it).
constexpr size_t kKernelMaxInsns = 1000000;

// The running kernel's version in KERNEL_VERSION() form; only kprobe-type
// programs on very old kernels check it, and it is harmless elsewhere.
uint32_t runningKernelVersion() {
  static const uint32_t version = [] {
    utsname name{};
    unsigned major = 0, minor = 0, patch = 0;
    if (uname(&name) != 0 || sscanf(name.release, "%u.%u.%u", &major, &minor, &patch) < 2) {
      return 0u;
    }
    return (major << 16) + (minor << 8) + std::min(patch, 255u);
  }();
  return version;
}

struct Attempt {
  int fd = -1;
  int err = 0;
  std::string log;
};

Attempt tryLoad(ProgramKind kind, const std::string& kernelName, std::span<const Insn> insns,
                const SubprogramBtf& subprograms, uint32_t logLevel) {
  size_t logSize = logLevel == 0 ? 0 : kInitialLogSize;
  for (;;) {
    std::vector<char> log(logSize);
    LIBBPF_OPTS(bpf_prog_load_opts, opts);
    opts.kern_version = kind.type == BPF_PROG_TYPE_KPROBE ? runningKernelVersion() : 0;
    if (kind.hasAttach) opts.expected_attach_type = kind.expectedAttach;
    opts.attach_btf_id = kind.attachBtfId;
    opts.log_level = logLevel;
    opts.log_size = static_cast<uint32_t>(logSize);
    opts.log_buf = logSize ? log.data() : nullptr;
    if (subprograms.btf) {
      opts.prog_btf_fd = subprograms.btf.get();
      opts.func_info = subprograms.funcInfo.data();
      opts.func_info_cnt = static_cast<uint32_t>(subprograms.funcInfo.size());
      opts.func_info_rec_size = sizeof(bpf_func_info);
    }
    Attempt attempt;
    attempt.fd =
        bpf_prog_load(kind.type, kernelName.c_str(), "GPL", insns.data(), insns.size(), &opts);
    attempt.err = attempt.fd < 0 ? errno : 0;
    if (logSize) attempt.log.assign(log.data(), strnlen(log.data(), log.size()));
    // A full buffer truncates the log (and the kernel then reports ENOSPC).
    if (attempt.fd < 0 && attempt.err == ENOSPC && logSize > 0 && logSize < kMaxLogSize) {
      logSize *= 4;
      continue;
    }
    return attempt;
  }
}

std::string lastLines(const std::string& text, size_t count) {
  std::string trimmed = text;
  while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == '\0')) trimmed.pop_back();
  size_t pos = trimmed.size();
  size_t lines = 0;
  while (pos > 0) {
    const size_t nl = trimmed.rfind('\n', pos - 1);
    if (nl == std::string::npos) return trimmed;
    if (++lines == count) {
      const size_t omitted = std::count(trimmed.begin(), trimmed.begin() + nl, '\n') + 1;
      return "... (" + std::to_string(omitted) + " earlier verifier log lines omitted)\n" +
             trimmed.substr(nl + 1);
    }
    pos = nl;
  }
  return trimmed;
}

}  // namespace

Result<Program> Program::load(ProgramKind kind, const std::string& name,
                              std::span<const Insn> insns, std::string* verifierLog, bool verbose) {
  const std::string kernelName = kernelObjectName(name);
  // Level 2 logs every instruction of every path: huge, but what -S users
  // debugging the verifier want. Failures are retried at level 1.
  auto subprograms = describeSubprograms(insns);
  if (!subprograms) return subprograms.error();
  Attempt attempt = tryLoad(kind, kernelName, insns, *subprograms, verbose ? 2 : 0);
  // Too large to be read at all: no log to retry for.
  if (attempt.fd < 0 && attempt.err == E2BIG && insns.size() > kKernelMaxInsns) {
    return makeError("program of " + std::to_string(insns.size()) +
                     " instructions is larger than the kernel loads (" +
                     std::to_string(kKernelMaxInsns) + ")");
  }
  if (attempt.fd < 0 && (!verbose || attempt.log.empty())) {
    Attempt retry = tryLoad(kind, kernelName, insns, *subprograms, 1);
    if (retry.fd >= 0) {
      // Loaded on the second try (e.g. a transient EAGAIN): keep it.
      attempt = std::move(retry);
    } else {
      attempt.log = std::move(retry.log);
    }
  }
  if (verifierLog != nullptr) *verifierLog = attempt.log;
  if (attempt.fd < 0) {
    std::string message = errnoText(attempt.err);
    const std::string tail = lastLines(attempt.log, kLogLinesInError);
    if (!tail.empty()) message += "\n" + tail;
    return makeError(std::move(message));
  }
  return Program(Fd(attempt.fd), name, insns.size());
}

bool runProgram(int progFd, std::span<const uint64_t> args, std::optional<uint32_t> cpu,
                uint32_t* result) {
  LIBBPF_OPTS(bpf_test_run_opts, opts);
  if (!args.empty()) {
    opts.ctx_in = args.data();
    opts.ctx_size_in = static_cast<uint32_t>(args.size_bytes());
  }
  if (cpu) {
    opts.flags = BPF_F_TEST_RUN_ON_CPU;
    opts.cpu = *cpu;
  }
  if (bpf_prog_test_run_opts(progFd, &opts) != 0) return false;
  if (result != nullptr) *result = opts.retval;
  return true;
}

Result<uint32_t> Program::run(std::span<const uint64_t> args, std::optional<uint32_t> cpu) const {
  uint32_t result = 0;
  if (!runProgram(fd_.get(), args, cpu, &result)) {
    const int err = errno;
    return makeError("failed to run BPF program '" + name_ + "': " + errnoText(err));
  }
  return result;
}

}  // namespace dtrace::bpf
