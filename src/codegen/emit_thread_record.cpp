// Probe arguments that an earlier point of the same thread recorded
// (providers/thread_record.h): a word of the thread's record, or the time
// since it was written.
#include "bpf/task_storage.h"
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
  currentTaskStorage(as_, probe_->threadRecordFd, false);
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
