#include "driver/thread_cpu_clock.h"

#include "bpf/assembler.h"
#include "bpf/task_storage.h"
#include "types/kernel_btf.h"

namespace dtrace::driver {

using namespace bpf;

namespace {

// sched_switch(preempt, prev, next, prev_state), BTF-typed: the tasks are
// pointers a task-storage lookup takes.
constexpr int16_t kPrevTask = 8, kNextTask = 16;

// At sched_switch: slice = now - this CPU's slice start; the start becomes
// now; the outgoing thread's sum grows by the slice (none for the first
// switch seen on a CPU); the incoming thread's sum is noted beside the
// start, for the probes that fire for it at this switch (sched:::on-cpu).
std::vector<Insn> switchAccounting(int sumsFd, int slicesFd) {
  constexpr int16_t kKey = -8;
  Assembler a;
  Label out = a.newLabel(), incoming = a.newLabel();
  auto taskSum = [&](int16_t task, Label none, bool create) {  // r0 = the task's sum, or none
    a.emit(ldx(Size::DW, R2, R6, task));
    a.jumpIf(BPF_JEQ, R2, 0, none);
    taskStorage(a, sumsFd, create);
    a.jumpIf(BPF_JEQ, R0, 0, none);
  };
  a.emit(mov64(R6, R1));  // the context
  a.emit(st(Size::W, R10, kKey, 0));
  a.emit(ldMapFd(R1, slicesFd));
  a.emit(mov64(R2, R10));
  a.emit(alu64(BPF_ADD, R2, kKey));
  a.emit(call(BPF_FUNC_map_lookup_elem));
  a.jumpIf(BPF_JEQ, R0, 0, out);
  a.emit(mov64(R7, R0));
  a.emit(call(BPF_FUNC_ktime_get_ns));
  a.emit(ldx(Size::DW, R8, R7, 0));
  a.emit(stx(Size::DW, R7, 0, R0));
  a.jumpIf(BPF_JEQ, R8, 0, incoming);
  a.emit(mov64(R9, R0));
  a.emit(alu64(BPF_SUB, R9, R8));
  taskSum(kPrevTask, incoming, true);
  a.emit(ldx(Size::DW, R1, R0, 0));
  a.emit(alu64(BPF_ADD, R1, R9));
  a.emit(stx(Size::DW, R0, 0, R1));
  a.bind(incoming);
  a.emit(st(Size::DW, R7, 8, 0));
  taskSum(kNextTask, out, false);
  a.emit(ldx(Size::DW, R1, R0, 0));
  a.emit(stx(Size::DW, R7, 8, R1));
  a.bind(out);
  a.emit(mov64(R0, 0));
  a.emit(exit());
  return a.finish().value();
}

}  // namespace

Result<ThreadCpuClock> ThreadCpuClock::start() {
  const std::optional<uint32_t> tracepoint =
      types::KernelBtf::instance().typeId("btf_trace_sched_switch", BtfKind::Typedef);
  if (!tracepoint) return makeError("vtimestamp needs sched_switch's kernel type information");
  auto sums = Map::createTaskStorage("dt_vtime", 8);
  if (!sums) return makeError("cannot create vtimestamp map: " + sums.error().message);
  auto slices = Map::create(BPF_MAP_TYPE_PERCPU_ARRAY, "dt_vtime_slice", 4, 16, 1);
  if (!slices) return makeError("cannot create vtimestamp map: " + slices.error().message);
  auto program = Program::load(ProgramKind::btfTracepoint(*tracepoint), "dt_vtime",
                               switchAccounting(sums->fd(), slices->fd()));
  if (!program)
    return makeError("failed to load vtimestamp's accounting: " + program.error().message);
  auto link = attachBtfTracepoint(program->fd());
  if (!link) return makeError("failed to attach vtimestamp's accounting: " + link.error().message);
  return ThreadCpuClock(std::move(*sums), std::move(*slices), std::move(*program),
                        std::move(*link));
}

}  // namespace dtrace::driver
