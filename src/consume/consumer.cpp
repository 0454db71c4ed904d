#include "consume/consumer.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>

#include "consume/messages.h"
#include "print/printf.h"
#include "print/value.h"
#include "util/fd.h"

namespace dtrace::consume {
namespace {

bool fieldFits(const ir::Field& f, size_t size) {
  return static_cast<size_t>(f.offset) + f.size <= size;
}

}  // namespace

Consumer::Consumer(const ir::Program& program, std::unique_ptr<Sink> sink, FILE* err)
    : program_(program), sink_(std::move(sink)), err_(err) {
  formats_.reserve(program.formats.size());
  for (const std::string& text : program.formats) {
    auto parsed = ir::PrintfFormat::parse(text);
    if (auto* format = std::get_if<ir::PrintfFormat>(&parsed)) {
      formats_.emplace_back(std::move(*format));
    } else {
      formats_.emplace_back(std::nullopt);  // reported when a record uses it
    }
  }
}

// What speculations make of an ECB's records, worked out once per ECB
// rather than for every record.
Consumer::EcbRole Consumer::roleOf(const ir::Ecb& ecb) {
  EcbRole role;
  for (const ir::Action& a : ecb.actions) {
    if (a.kind == ir::ActionKind::Speculate && !a.fields.empty()) role.speculationTag = a.fields[0];
  }
  role.silent = !ecb.actions.empty() &&
                std::all_of(ecb.actions.begin(), ecb.actions.end(), [](const ir::Action& a) {
                  return a.kind == ir::ActionKind::Commit || a.kind == ir::ActionKind::Discard;
                });
  return role;
}

Consumer::~Consumer() = default;

uint64_t Consumer::exitWord() const {
  return exitWord_ ? __atomic_load_n(exitWord_, __ATOMIC_ACQUIRE) : 0;  // the kernel writes it
}

bool Consumer::exitRequested() const {
  return exitRequested_ || (exitWord() & ir::kExitRequested) != 0;
}

// The kernel's word has the status of the exit() that won, even when its
// record was lost (and, during END, the status END's exit() gave).
int Consumer::exitStatus() const {
  const uint64_t word = exitWord();
  if (word & ir::kExitRequested) return static_cast<int32_t>(static_cast<uint32_t>(word));
  return exitStatus_;
}

int Consumer::malformed(std::string message) {
  lastError_ = std::move(message);
  return -EINVAL;
}

// With -F a return's record waits for the record after it (see
// FlowIndent::appendPrefix); everything else is processed as it comes.
int Consumer::handleRecord(const void* data, size_t size) {
  if (!holdsReturns_ || replaying_) {
    return processRecord(data, size, std::nullopt);
  }
  ir::RecordHeader header{};
  if (size >= sizeof header) std::memcpy(&header, data, sizeof header);
  const int pending = processPendingReturn(header);
  const bool isReturn =
      header.epid != 0 && header.epid <= program_.ecbs.size() &&
      FlowIndent::flowOf(program_.ecbs[header.epid - 1].name) == FlowIndent::Flow::Return;
  if (isReturn) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    pendingReturn_.assign(bytes, bytes + size);
    return pending;
  }
  const int rc = processRecord(data, size, std::nullopt);
  return pending != 0 ? pending : rc;
}

// The return held back, now that the record after it (`following`, if
// any) is known: one from another CPU's buffer means the return's buffer
// ended.
int Consumer::processPendingReturn(std::optional<ir::RecordHeader> following) {
  if (pendingReturn_.empty()) return 0;
  std::vector<uint8_t> record;
  record.swap(pendingReturn_);
  ir::RecordHeader header;
  std::memcpy(&header, record.data(), sizeof header);
  std::optional<FlowIndent::Next> next;
  if (following && following->cpu == header.cpu) {
    const uint32_t epid = following->epid;
    next = FlowIndent::Next{
        epid, epid != 0 && epid <= program_.ecbs.size() ? program_.ecbs[epid - 1].probeId : 0};
  }
  return processRecord(record.data(), record.size(), next);
}

int Consumer::processRecord(const void* data, size_t size, std::optional<FlowIndent::Next> next) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  ir::RecordHeader header;
  if (size < sizeof header) return malformed("record shorter than its header");
  std::memcpy(&header, bytes, sizeof header);
  const uint8_t* payload = bytes + sizeof header;
  const size_t available = size - sizeof header;

  if (header.epid == 0) return fault(header, payload, available);
  if (header.epid == ir::kSpeculativeDropEpid) {
    uint64_t tag = 0;
    if (available < sizeof tag) return malformed("speculative drop record is truncated");
    std::memcpy(&tag, payload, sizeof tag);
    speculations_.drop(tag);
    return 0;
  }
  if (header.epid > program_.ecbs.size()) {
    return malformed("record has unknown EPID " + std::to_string(header.epid));
  }
  const ir::Ecb& ecb = program_.ecbs[header.epid - 1];
  if (available < ecb.dataSize) {
    return malformed("record for EPID " + std::to_string(header.epid) + " is truncated");
  }
  // ECBs are added while tracing (probes of a library mapped later).
  while (ecbRoles_.size() < program_.ecbs.size()) {
    ecbRoles_.push_back(roleOf(program_.ecbs[ecbRoles_.size()]));
  }
  const EcbRole& role = ecbRoles_[header.epid - 1];
  // A speculative record waits for its commit() or discard().
  if (role.speculationTag && !replaying_) {
    if (!fieldFits(*role.speculationTag, available)) {
      return malformed("speculate( ) field lies outside its record");
    }
    uint64_t tag = 0;
    std::memcpy(&tag, payload + role.speculationTag->offset, sizeof tag);
    if (speculations_.hold(tag, data, size) != SpeculationBuffers::Hold::Committed) return 0;
    replaying_ = true;  // read after its commit: it prints now
    const int rc = handleRecord(data, size);
    replaying_ = false;
    return rc;
  }
  sink_->beginRecord(RecordStart{header.cpu, header.epid, &ecb, role.silent, next});
  const int rc = runActions(ecb, payload, available);
  sink_->endRecord();
  return rc;
}

// An ERROR record: the fault's message goes to stderr, after whatever the
// sink makes of it.
int Consumer::fault(const ir::RecordHeader& header, const uint8_t* payload, size_t available) {
  ir::FaultRecord fault;
  if (available < sizeof fault) return malformed("fault record is truncated");
  std::memcpy(&fault, payload, sizeof fault);
  ++faults_;
  const std::string message = formatFault(program_, fault);
  const ir::Ecb* ecb = fault.epid >= 1 && fault.epid <= program_.ecbs.size()
                           ? &program_.ecbs[fault.epid - 1]
                           : nullptr;
  sink_->fault(header.cpu, fault, ecb, message);
  std::fputs((message + "\n").c_str(), err_);
  return 0;
}

int Consumer::runActions(const ir::Ecb& ecb, const uint8_t* payload, size_t available) {
  uint64_t ran = ~uint64_t{0};  // actions under an `if` say whether they ran
  if (ecb.hasActionMask && available >= sizeof ran) std::memcpy(&ran, payload, sizeof ran);
  for (size_t i = 0; i < ecb.actions.size(); i++) {
    if (i < 64 && !((ran >> i) & 1)) continue;
    if (int rc = decodeAction(ecb, ecb.actions[i], payload, available); rc != 0) return rc;
  }
  return 0;
}

int Consumer::decodeAction(const ir::Ecb& ecb, const ir::Action& action, const uint8_t* payload,
                           size_t available) {
  switch (action.kind) {
    case ir::ActionKind::Trace:
      if (action.fields.empty() || !fieldFits(action.fields[0], available)) {
        return malformed("trace( ) field lies outside its record");
      }
      sink_->traceValue(action.fields[0], payload);
      return 0;
    case ir::ActionKind::Printf:
      return printfAction(action, payload, available);
    case ir::ActionKind::Stack:
    case ir::ActionKind::Symbol:
      if (action.fields.empty() || !fieldFits(action.fields[0], available)) {
        return malformed("stack or symbol field lies outside its record");
      }
      sink_->codeAddress(action.fields[0], payload);
      return 0;
    case ir::ActionKind::Exit:
      // exit() prints nothing; the driver stops tracing and exits with it.
      if (!action.fields.empty() && fieldFits(action.fields[0], available)) {
        exitStatus_ = static_cast<int>(
            print::readSigned(payload + action.fields[0].offset, action.fields[0].size));
      }
      exitRequested_ = true;
      return 0;
    case ir::ActionKind::Tracemem:
    case ir::ActionKind::Printm:
      return tracememAction(action, payload, available);
    case ir::ActionKind::System:
    case ir::ActionKind::Freopen:
      return commandAction(ecb, action, payload, available);
    case ir::ActionKind::Print:
      return printAction(action, payload, available);
    case ir::ActionKind::Ftruncate:
      sink_->writePending();
      sink_->output().truncate();
      return 0;
    case ir::ActionKind::Raise:
    case ir::ActionKind::Stop:
    case ir::ActionKind::Chill:
    case ir::ActionKind::Speculate:  // a replayed record's tag
      return 0;                      // done in probe context
    case ir::ActionKind::Commit:
    case ir::ActionKind::Discard:
      return speculationAction(action, payload, available);
    case ir::ActionKind::Printa:
    case ir::ActionKind::Clear:
    case ir::ActionKind::Trunc:
    case ir::ActionKind::Normalize:
    case ir::ActionKind::Denormalize:
    case ir::ActionKind::Setopt: {
      bool fits = true;
      for (const ir::Field& f : action.fields) fits = fits && fieldFits(f, available);
      if (!fits) return malformed("aggregation action field lies outside its record");
      sink_->writePending();
      if (auto r = aggregationAction(ecb, action, payload); !r) return malformed(r.error().message);
      return 0;
    }
  }
  return 0;
}

int Consumer::printfAction(const ir::Action& action, const uint8_t* payload, size_t available) {
  if (action.formatIndex >= formats_.size() || !formats_[action.formatIndex]) {
    return malformed("printf( ) record has no valid format");
  }
  std::string text;
  auto r = print::appendPrintf(text, *formats_[action.formatIndex], action.fields, payload,
                               available, {}, &symbols_);
  // What was formatted before a bad conversion still prints.
  sink_->printfText(text, action.fields, payload);
  return r ? 0 : malformed(r.error().message);
}

int Consumer::tracememAction(const ir::Action& action, const uint8_t* payload, size_t available) {
  // Always a hex dump; a dynamic size prints that many of the bytes
  // (0 or more than were traced: all of them), as dt_consume.c does.
  const ir::Field& bytes = action.fields.at(0);
  if (!fieldFits(bytes, available) ||
      (action.fields.size() > 1 && !fieldFits(action.fields[1], available))) {
    return malformed("tracemem( ) field lies outside its record");
  }
  uint64_t n = bytes.size;
  if (action.fields.size() > 1) {
    const uint64_t dynsize = print::readUnsigned(payload + action.fields[1].offset, 8);
    if (dynsize != 0 && dynsize < n) n = dynsize;
  }
  sink_->memory(payload + bytes.offset, n);
  return 0;
}

// system() and freopen(), whose argument is a format's text.
int Consumer::commandAction(const ir::Ecb& ecb, const ir::Action& action, const uint8_t* payload,
                            size_t available) {
  if (action.formatIndex >= formats_.size() || !formats_[action.formatIndex]) {
    return malformed("record has no valid format");
  }
  std::string text;
  auto r = print::appendPrintf(text, *formats_[action.formatIndex], action.fields, payload,
                               available, {}, &symbols_);
  if (!r) return malformed(r.error().message);
  sink_->writePending();
  if (action.kind == ir::ActionKind::System) {
    // A command's output that would break the sink's format is captured.
    const bool capture = sink_->capturesCommandOutput();
    std::string output = runCommand(text, capture);
    if (capture) sink_->commandOutput(output);
  } else {
    reopenOutput(ecb, text, program_.formats[action.formatIndex].empty());
  }
  return 0;
}

int Consumer::printAction(const ir::Action& action, const uint8_t* payload, size_t available) {
  const bool pointer = action.fields.size() == 2;
  const ir::Field& object = action.fields.back();
  if (!fieldFits(action.fields.front(), available) || !fieldFits(object, available) ||
      action.typeIndex >= program_.types.size() ||
      program_.types[action.typeIndex].size > object.size) {
    return malformed("print( ) record does not match its type");
  }
  print::PrintedValue value{program_.types, action.typeIndex, payload + object.offset, std::nullopt,
                            options_ ? options_->size("printsize") : 0};
  if (pointer) value.address = print::readUnsigned(payload + action.fields[0].offset, 8);
  sink_->printedValue(value);
  return 0;
}

int Consumer::speculationAction(const ir::Action& action, const uint8_t* payload,
                                size_t available) {
  if (action.fields.empty() || !fieldFits(action.fields[0], available)) {
    return malformed("commit( ) field lies outside its record");
  }
  uint64_t tag = 0;
  std::memcpy(&tag, payload + action.fields[0].offset, sizeof tag);
  if (tag == 0) return 0;
  if (action.kind == ir::ActionKind::Discard) {
    speculations_.discard(tag);
  } else {
    replayCommitted(tag);
  }
  return 0;
}

// The committed records print where the commit() is, each as it would
// have printed when it came; the committing record's own text, held
// meanwhile, follows.
// The committed records print where the commit() is, each as it would
// have printed when it came; the committing record's own output, held
// meanwhile by the sink, follows.
void Consumer::replayCommitted(uint64_t tag) {
  replaying_ = true;
  for (const std::string& record : speculations_.commit(tag)) {
    handleRecord(record.data(), record.size());
  }
  replaying_ = false;
}

// system(): `sh -c command`, waited for, as system(3C) runs it. The command
// gets default signal handling, whatever dtrace blocks, and writes to
// dtrace's standard output; when freopen() has redirected that output, to
// the new file (DTrace reopens stdout itself). With `capture`, its output
// comes back instead.
std::string Consumer::runCommand(const std::string& command, bool capture) {
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t signals;
  sigemptyset(&signals);
  posix_spawnattr_setsigmask(&attr, &signals);
  sigfillset(&signals);
  posix_spawnattr_setsigdefault(&attr, &signals);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  Fd readEnd, writeEnd;
  if (int ends[2]; capture && pipe2(ends, O_CLOEXEC) == 0) {
    readEnd.reset(ends[0]);
    writeEnd.reset(ends[1]);
    posix_spawn_file_actions_adddup2(&files, writeEnd.get(), STDOUT_FILENO);
  } else if (const OutputFile& out = sink_->output();
             out.original() == stdout && out.current() != out.original()) {
    posix_spawn_file_actions_adddup2(&files, fileno(out.current()), STDOUT_FILENO);
  }
  const char* argv[] = {"sh", "-c", command.c_str(), nullptr};
  pid_t pid = -1;
  int err = posix_spawn(&pid, "/bin/sh", &files, &attr, const_cast<char* const*>(argv), environ);
  posix_spawn_file_actions_destroy(&files);
  posix_spawnattr_destroy(&attr);
  std::string output;
  writeEnd.reset();  // the command holds the only write end: read to its end
  if (err == 0 && readEnd) {
    char chunk[4096];
    for (ssize_t n; (n = read(readEnd.get(), chunk, sizeof chunk)) != 0;) {
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;
      output.append(chunk, static_cast<size_t>(n));
    }
  }
  if (err != 0) {
    std::fprintf(err_, "dtrace: failed to run system( ) command \"%s\": %s\n", command.c_str(),
                 std::strerror(err));
    return output;
  }
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return output;
}

// freopen(path): later output is appended to `path`; freopen("") goes back
// to the original output. A file that cannot be opened is reported as
// DTrace reports a library error, and the output stays where it was.
void Consumer::reopenOutput(const ir::Ecb& ecb, const std::string& path, bool restore) {
  if (restore) {
    sink_->output().restore();
    return;
  }
  if (const int error = sink_->output().reopen(path); error != 0) {
    std::fprintf(err_,
                 "dtrace: error on enabled probe ID %u (ID %u: %s:%s:%s:%s): couldn't "
                 "freopen() \"%s\": %s\n",
                 ecb.epid, ecb.probeId, ecb.provider.c_str(), ecb.module.c_str(),
                 ecb.function.c_str(), ecb.name.c_str(), path.c_str(), std::strerror(error));
  }
}

void Consumer::setFlowIndent(bool on) {
  if (!on) (void)processPendingReturn(std::nullopt);
  holdsReturns_ = sink_->setFlowIndent(on);
}

void Consumer::flush() {
  (void)processPendingReturn(std::nullopt);  // the end of the buffers read
  sink_->output().flush();
}

}  // namespace dtrace::consume
