// Probe arguments that an earlier point of the same thread recorded
// (providers/thread_record.h): a word of the thread's record, or the time
// since it was written.
#include "codegen/emitter.h"

namespace dtrace::codegen {

using namespace bpf;

void ProgramEmitter::recordedRead(const providers::ArgSource& a) {
  using Kind = providers::ArgSource::Kind;
  if (probe_->threadRecordFd < 0) {
    fail("probe " + probe_->provider + ":" + probe_->module + ":" + probe_->function + ":" +
         probe_->name + " has no thread record to read");
    return;
  }
  Label done = as_.newLabel();
  as_.emit(call(BPF_FUNC_get_current_task_btf));
  as_.emit(mov64(R2, R0));
  as_.emit(ldMapFd(R1, probe_->threadRecordFd));
  as_.emit(mov64(R3, 0));
  as_.emit(mov64(R4, 0));
  as_.emit(call(BPF_FUNC_task_storage_get));
  as_.emit(mov64(R6, 0));
  as_.jumpIf(BPF_JEQ, R0, 0, done);
  if (a.kind == Kind::SinceRecorded) {
    as_.emit(ldx(Size::DW, R6, R0, 0));
    as_.jumpIf(BPF_JEQ, R6, 0, done);
    as_.emit(call(BPF_FUNC_ktime_get_ns));
    as_.emit(alu64(BPF_SUB, R0, R6));
    as_.emit(mov64(R6, R0));
  } else {
    as_.emit(ldx(Size::DW, R6, R0, static_cast<int16_t>(8 * a.offset)));
    if (a.constant != 0) {
      as_.emit(alu64(BPF_AND, R6, static_cast<int32_t>(a.constant)));
      as_.jumpIf(BPF_JEQ, R6, 0, done);
      as_.emit(mov64(R6, 1));
    }
  }
  as_.bind(done);
}

}  // namespace dtrace::codegen
