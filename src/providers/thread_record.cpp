#include "providers/thread_record.h"

#include "bpf/assembler.h"
#include "bpf/task_storage.h"

namespace dtrace::providers {

using namespace bpf;

std::vector<Insn> threadRecorderProgram(int mapFd, const std::vector<RecordedValue>& values) {
  constexpr int16_t kScratch = -8;
  Assembler a;
  Label out = a.newLabel();
  a.emit(mov64(R6, R1));  // ctx
  currentTaskStorage(a, mapFd, true);
  a.jumpIf(BPF_JEQ, R0, 0, out);  // out of memory: the probes read no record
  a.emit(mov64(R7, R0));
  a.emit(call(BPF_FUNC_ktime_get_ns));
  a.emit(stx(Size::DW, R7, 0, R0));
  for (size_t i = 0; i < values.size(); i++) {
    const RecordedValue& v = values[i];
    a.emit(ldx(Size::DW, R3, R6, v.ctxOffset));
    if (v.userOffset >= 0) {
      // A field of the user structure the context points to; 0 if unreadable.
      a.emit(st(Size::DW, R10, kScratch, 0));
      a.emit(alu64(BPF_ADD, R3, v.userOffset));
      a.emit(mov64(R1, R10));
      a.emit(alu64(BPF_ADD, R1, kScratch));
      a.emit(mov64(R2, 4));
      a.emit(call(BPF_FUNC_probe_read_user));
      a.emit(ldx(Size::W, R3, R10, kScratch));
    }
    a.emit(stx(Size::DW, R7, static_cast<int16_t>(8 * (i + 1)), R3));
  }
  a.bind(out);
  a.emit(mov64(R0, 0));
  a.emit(exit());
  return a.finish().value();
}

Result<std::shared_ptr<ThreadRecord>> ThreadRecord::create(const std::string& name,
                                                           uint32_t words) {
  Result<Map> map = Map::createTaskStorage(name, 8 * words);
  if (!map) return map.error();
  return std::shared_ptr<ThreadRecord>(new ThreadRecord(std::move(*map), words));
}

Result<void> ThreadRecord::start(const std::string& key, const StartPoint& point) {
  if (recorders_.count(key)) return {};
  if (point.values.size() + 1 > words_) return makeError("thread record too small for " + key);
  const std::vector<Insn> insns = threadRecorderProgram(map_.fd(), point.values);
  const bool uprobes = point.rawTracepoint.empty();
  const bool multi = uprobes && uprobeMultiSupported();
  const ProgramKind kind = !uprobes ? ProgramKind(BPF_PROG_TYPE_RAW_TRACEPOINT)
                           : multi  ? ProgramKind(BPF_PROG_TYPE_KPROBE, BPF_TRACE_UPROBE_MULTI)
                                    : ProgramKind(BPF_PROG_TYPE_KPROBE);
  Result<Program> program = Program::load(kind, "dt_record", insns);
  if (!program)
    return makeError("failed to load the recorder for " + key + ": " + program.error().message);
  std::vector<Link> links;
  if (!uprobes) {
    Result<Link> link = attachRawTracepoint(program->fd(), point.rawTracepoint);
    if (!link) return link.error();
    links.push_back(std::move(*link));
  } else if (multi) {
    Result<Link> link =
        attachUprobeMulti(program->fd(), point.objectPath, point.sites, false, point.pid);
    if (!link) return link.error();
    links.push_back(std::move(*link));
  } else {
    for (const UprobeSite& site : point.sites) {
      Result<Link> link = attachUprobe(program->fd(), point.objectPath, site, false, point.pid);
      if (!link) return link.error();
      links.push_back(std::move(*link));
    }
  }
  recorders_.emplace(key, std::make_pair(std::move(*program), std::move(links)));
  return {};
}

}  // namespace dtrace::providers
