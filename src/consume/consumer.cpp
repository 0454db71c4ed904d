#include "consume/consumer.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>

#include "consume/json_output.h"
#include "consume/messages.h"
#include "print/aggregation.h"
#include "print/json.h"
#include "print/printf.h"
#include "print/trace.h"
#include "print/value.h"

namespace dtrace::consume {
namespace {

bool fieldFits(const ir::Field& f, size_t size) {
  return static_cast<size_t>(f.offset) + f.size <= size;
}

}  // namespace

Consumer::Consumer(const ir::Program& program, FILE* out, bool quiet, FILE* err)
    : program_(program), out_(out), originalOut_(out), err_(err), quiet_(quiet) {
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

Consumer::~Consumer() {
  if (out_ != originalOut_) std::fclose(out_);
}

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
  if (!flow_ || replaying_ || format_ == OutputFormat::Json) {
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

  if (header.epid == 0) {
    ir::FaultRecord fault;
    if (available < sizeof fault) return malformed("fault record is truncated");
    std::memcpy(&fault, payload, sizeof fault);
    ++faults_;
    // The heading comes first, as dtrace(1M) prints it for every record.
    if (!headingPrinted_ && format_ != OutputFormat::Json) {
      std::fputs(heading().c_str(), recordOut());
      std::fflush(recordOut());
    }
    headingPrinted_ = true;
    const std::string message = formatFault(program_, fault);
    if (format_ == OutputFormat::Json) {
      std::string line;
      appendFaultLine(line, program_, header.cpu, fault, message);
      std::fputs(line.c_str(), out_);
    }
    std::fputs((message + "\n").c_str(), err_);
    return 0;
  }

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
  // A clause that only commits or discards prints nothing of its own.
  const bool silent = role.silent;

  buffer_.clear();
  // In JSON mode the record is one object, its actions' data in "output".
  std::optional<print::JsonWriter> json;
  if (format_ == OutputFormat::Json) {
    json.emplace(buffer_);
    beginProbeObject(*json, "record", header.cpu, &ecb);
    json->key("output").beginArray();
    json_ = &*json;
  } else if (flow_) {
    // dtrace(1M) indents the column even when quiet.
    if (silent) {
      flow_->noteRecord(header.epid, ecb.probeId);
    } else {
      if (!headingPrinted_) buffer_ += heading();
      flow_->appendPrefix(buffer_, header.cpu, header.epid, ecb, next);
    }
  } else if (!quiet_ && !silent) {
    if (!headingPrinted_) buffer_ += heading();
    print::appendProbePrefix(buffer_, header.cpu, ecb.probeId, ecb.function, ecb.name);
  }
  if (!silent) headingPrinted_ = true;

  int rc = 0;
  uint64_t ran = ~uint64_t{0};  // actions under an `if` say whether they ran
  if (ecb.hasActionMask && available >= sizeof ran) std::memcpy(&ran, payload, sizeof ran);
  for (size_t i = 0; i < ecb.actions.size(); i++) {
    const ir::Action& action = ecb.actions[i];
    if (i < 64 && !((ran >> i) & 1)) continue;
    switch (action.kind) {
      case ir::ActionKind::Trace:
        if (action.fields.empty() || !fieldFits(action.fields[0], available)) {
          rc = malformed("trace( ) field lies outside its record");
          break;
        }
        if (json) {
          json->beginObject().key("value");
          writeFieldValue(*json, action.fields[0], payload, symbols_);
          json->endObject();
        } else {
          print::appendTrace(buffer_, action.fields[0], payload, quiet_, rawBytes_);
        }
        break;
      case ir::ActionKind::Printf: {
        if (action.formatIndex >= formats_.size() || !formats_[action.formatIndex]) {
          rc = malformed("printf( ) record has no valid format");
          break;
        }
        std::string text;
        auto r = print::appendPrintf(json ? text : buffer_, *formats_[action.formatIndex],
                                     action.fields, payload, available, {}, &symbols_);
        if (!r) rc = malformed(r.error().message);
        if (json) {  // the text, then each argument's value, as FreeBSD writes them
          json->beginObject().key("message").string(text).endObject();
          for (const ir::Field& f : action.fields) {
            json->beginObject().key("value");
            writeFieldValue(*json, f, payload, symbols_);
            json->endObject();
          }
        }
        break;
      }
      case ir::ActionKind::Stack:
      case ir::ActionKind::Symbol:
        if (action.fields.empty() || !fieldFits(action.fields[0], available)) {
          rc = malformed("stack or symbol field lies outside its record");
          break;
        }
        if (json) {
          writeCodeAddress(*json, action.fields[0], payload, symbols_);
        } else {
          print::appendCodeAddress(buffer_, action.fields[0], payload, symbols_);
        }
        break;
      case ir::ActionKind::Exit:
        // exit() prints nothing; the driver stops tracing and exits with it.
        if (!action.fields.empty() && fieldFits(action.fields[0], available)) {
          exitStatus_ = static_cast<int>(
              print::readSigned(payload + action.fields[0].offset, action.fields[0].size));
        }
        exitRequested_ = true;
        break;
      case ir::ActionKind::Tracemem:
      case ir::ActionKind::Printm: {
        // Always a hex dump; a dynamic size prints that many of the bytes
        // (0 or more than were traced: all of them), as dt_consume.c does.
        const ir::Field& bytes = action.fields.at(0);
        if (!fieldFits(bytes, available) ||
            (action.fields.size() > 1 && !fieldFits(action.fields[1], available))) {
          rc = malformed("tracemem( ) field lies outside its record");
          break;
        }
        uint64_t n = bytes.size;
        if (action.fields.size() > 1) {
          const uint64_t dynsize = print::readUnsigned(payload + action.fields[1].offset, 8);
          if (dynsize != 0 && dynsize < n) n = dynsize;
        }
        if (json) {
          json->beginObject().key("tracemem");
          writeBytes(*json, payload + bytes.offset, n);
          json->endObject();
        } else {
          print::appendBytes(buffer_, payload + bytes.offset, n, -33, quiet_, true);
        }
        break;
      }
      case ir::ActionKind::System:
      case ir::ActionKind::Freopen: {
        if (action.formatIndex >= formats_.size() || !formats_[action.formatIndex]) {
          rc = malformed("record has no valid format");
          break;
        }
        std::string text;
        auto r = print::appendPrintf(text, *formats_[action.formatIndex], action.fields, payload,
                                     available, {}, &symbols_);
        if (!r) {
          rc = malformed(r.error().message);
          break;
        }
        writePending();
        if (action.kind == ir::ActionKind::System) {
          // A command's output would break a JSON line: it is captured.
          std::string output = runCommand(text, json.has_value());
          if (json) json->beginObject().key("system").string(output).endObject();
        } else {
          reopenOutput(ecb, text, program_.formats[action.formatIndex].empty());
        }
        break;
      }
      case ir::ActionKind::Print: {
        const bool pointer = action.fields.size() == 2;
        const ir::Field& object = action.fields.back();
        if (!fieldFits(action.fields.front(), available) || !fieldFits(object, available) ||
            action.typeIndex >= program_.types.size() ||
            program_.types[action.typeIndex].size > object.size) {
          rc = malformed("print( ) record does not match its type");
          break;
        }
        print::PrintedValue value{program_.types, action.typeIndex, payload + object.offset,
                                  std::nullopt, options_ ? options_->size("printsize") : 0};
        if (pointer) {
          value.address = print::readUnsigned(payload + action.fields[0].offset, 8);
        }
        if (json) {  // the text print() shows, as one string
          std::string text;
          print::appendPrintedValue(text, value);
          json->beginObject().key("print").string(text).endObject();
        } else {
          print::appendPrintedValue(buffer_, value);
        }
        break;
      }
      case ir::ActionKind::Ftruncate:
        writePending();
        truncateOutput();
        break;
      case ir::ActionKind::Raise:
      case ir::ActionKind::Stop:
      case ir::ActionKind::Chill:
      case ir::ActionKind::Speculate:  // a replayed record's tag
        break;                         // done in probe context
      case ir::ActionKind::Commit:
      case ir::ActionKind::Discard: {
        if (action.fields.empty() || !fieldFits(action.fields[0], available)) {
          rc = malformed("commit( ) field lies outside its record");
          break;
        }
        uint64_t tag = 0;
        std::memcpy(&tag, payload + action.fields[0].offset, sizeof tag);
        if (tag == 0) break;
        if (action.kind == ir::ActionKind::Discard) {
          speculations_.discard(tag);
        } else {
          replayCommitted(tag);
        }
        break;
      }
      case ir::ActionKind::Printa:
      case ir::ActionKind::Clear:
      case ir::ActionKind::Trunc:
      case ir::ActionKind::Normalize:
      case ir::ActionKind::Denormalize:
      case ir::ActionKind::Setopt: {
        bool fits = true;
        for (const ir::Field& f : action.fields) fits = fits && fieldFits(f, available);
        if (!fits) {
          rc = malformed("aggregation action field lies outside its record");
          break;
        }
        writePending();
        if (auto r = aggregationAction(ecb, action, payload); !r) rc = malformed(r.error().message);
        break;
      }
    }
    if (rc != 0) break;
  }
  if (json) {
    json->endArray().endObject();
    json_ = nullptr;
    buffer_ += '\n';
  } else if (!quiet_ && !silent) {
    buffer_ += '\n';
  }
  std::fwrite(buffer_.data(), 1, buffer_.size(), recordOut());
  return rc;
}

// The committed records print where the commit() is, each as it would
// have printed when it came; the committing record's own text, held
// meanwhile, follows.
void Consumer::replayCommitted(uint64_t tag) {
  std::string held;
  held.swap(buffer_);
  print::JsonWriter* heldJson = json_;
  json_ = nullptr;
  replaying_ = true;
  for (const std::string& record : speculations_.commit(tag)) {
    handleRecord(record.data(), record.size());
  }
  replaying_ = false;
  json_ = heldJson;
  buffer_.swap(held);
}

// The record's text so far, before an action that writes (or runs
// something that writes) itself. A JSON record is written whole, at its end.
void Consumer::writePending() {
  if (json_) return;
  std::fwrite(buffer_.data(), 1, buffer_.size(), recordOut());
  buffer_.clear();
  std::fflush(recordOut());
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
  int pipeFds[2] = {-1, -1};
  if (capture && pipe2(pipeFds, O_CLOEXEC) == 0) {
    posix_spawn_file_actions_adddup2(&files, pipeFds[1], STDOUT_FILENO);
  } else if (originalOut_ == stdout && out_ != originalOut_) {
    posix_spawn_file_actions_adddup2(&files, fileno(out_), STDOUT_FILENO);
  }
  const char* argv[] = {"sh", "-c", command.c_str(), nullptr};
  pid_t pid = -1;
  int err = posix_spawn(&pid, "/bin/sh", &files, &attr, const_cast<char* const*>(argv), environ);
  posix_spawn_file_actions_destroy(&files);
  posix_spawnattr_destroy(&attr);
  std::string output;
  if (pipeFds[1] >= 0) close(pipeFds[1]);
  if (err == 0 && pipeFds[0] >= 0) {
    char chunk[4096];
    for (ssize_t n; (n = read(pipeFds[0], chunk, sizeof chunk)) != 0;) {
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;
      output.append(chunk, static_cast<size_t>(n));
    }
  }
  if (pipeFds[0] >= 0) close(pipeFds[0]);
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
    if (out_ != originalOut_) std::fclose(out_);
    out_ = originalOut_;
    return;
  }
  FILE* next = std::fopen(path.c_str(), "ae");  // not inherited by system() or -c commands
  if (!next) {
    std::fprintf(err_,
                 "dtrace: error on enabled probe ID %u (ID %u: %s:%s:%s:%s): couldn't "
                 "freopen() \"%s\": %s\n",
                 ecb.epid, ecb.probeId, ecb.provider.c_str(), ecb.module.c_str(),
                 ecb.function.c_str(), ecb.name.c_str(), path.c_str(), std::strerror(errno));
    return;
  }
  if (out_ != originalOut_) std::fclose(out_);
  out_ = next;
}

// ftruncate(): empties the output file and writes from its start again.
void Consumer::truncateOutput() {
  if (ftruncate(fileno(out_), 0) == 0) (void)fseeko(out_, 0, SEEK_SET);
}

Result<void> Consumer::write(const std::string& text) {
  if (std::fwrite(text.data(), 1, text.size(), out_) != text.size()) {
    if (writeError_ == 0 && errno != EPIPE) writeError_ = errno;
    return makeError(std::string("failed to print aggregations: ") + std::strerror(errno));
  }
  return {};
}

// What dtrace(1M) prints before the first record: -F's heading, or the
// probe columns' unless quiet.
std::string Consumer::heading() const {
  std::string text;
  if (flow_) {
    FlowIndent::appendHeading(text);
  } else if (!quiet_) {
    text = print::kProbeHeading;
  }
  return text;
}

void Consumer::setFlowIndent(bool on) {
  if (on && !flow_) flow_.emplace();
  if (!on) {
    (void)processPendingReturn(std::nullopt);
    flow_.reset();
  }
}

void Consumer::flush() {
  (void)processPendingReturn(std::nullopt);  // the end of the buffers read
  // stdio reports a failed write at the flush that retries it, if not before.
  if (std::fflush(out_) != 0 && writeError_ == 0 && errno != EPIPE) writeError_ = errno;
}

}  // namespace dtrace::consume
