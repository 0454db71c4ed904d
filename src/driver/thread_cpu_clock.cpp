#include "driver/thread_cpu_clock.h"

#include "bpf/assembler.h"
#include "bpf/task_storage.h"

namespace dtrace::driver {

using namespace bpf;

namespace {

// At sched_switch (run by the outgoing thread): slice = now - this CPU's
// slice start; the start becomes now; the outgoing thread's sum grows by
// the slice (none for the first switch seen on a CPU).
std::vector<Insn> switchAccounting(int sumsFd, int sliceStartsFd) {
  constexpr int16_t kKey = -8;
  Assembler a;
  Label out = a.newLabel();
  a.emit(st(Size::W, R10, kKey, 0));
  a.emit(ldMapFd(R1, sliceStartsFd));
  a.emit(mov64(R2, R10));
  a.emit(alu64(BPF_ADD, R2, kKey));
  a.emit(call(BPF_FUNC_map_lookup_elem));
  a.jumpIf(BPF_JEQ, R0, 0, out);
  a.emit(mov64(R7, R0));
  a.emit(call(BPF_FUNC_ktime_get_ns));
  a.emit(ldx(Size::DW, R8, R7, 0));
  a.emit(stx(Size::DW, R7, 0, R0));
  a.jumpIf(BPF_JEQ, R8, 0, out);
  a.emit(mov64(R6, R0));
  a.emit(alu64(BPF_SUB, R6, R8));
  currentTaskStorage(a, sumsFd, true);
  a.jumpIf(BPF_JEQ, R0, 0, out);
  a.emit(ldx(Size::DW, R1, R0, 0));
  a.emit(alu64(BPF_ADD, R1, R6));
  a.emit(stx(Size::DW, R0, 0, R1));
  a.bind(out);
  a.emit(mov64(R0, 0));
  a.emit(exit());
  return a.finish().value();
}

}  // namespace

Result<ThreadCpuClock> ThreadCpuClock::start() {
  auto sums = Map::createTaskStorage("dt_vtime", 8);
  if (!sums) return makeError("cannot create vtimestamp map: " + sums.error().message);
  auto starts = Map::create(BPF_MAP_TYPE_PERCPU_ARRAY, "dt_vtime_slice", 4, 8, 1);
  if (!starts) return makeError("cannot create vtimestamp map: " + starts.error().message);
  auto program = Program::load(ProgramKind(BPF_PROG_TYPE_RAW_TRACEPOINT), "dt_vtime",
                               switchAccounting(sums->fd(), starts->fd()));
  if (!program)
    return makeError("failed to load vtimestamp's accounting: " + program.error().message);
  auto link = attachRawTracepoint(program->fd(), "sched_switch");
  if (!link) return makeError("failed to attach vtimestamp's accounting: " + link.error().message);
  return ThreadCpuClock(std::move(*sums), std::move(*starts), std::move(*program),
                        std::move(*link));
}

}  // namespace dtrace::driver
