// cwd and root: the path of current->fs->pwd (or ->root), built by walking
// dentries up to the root of the process's mount namespace in a bpf_loop
// callback, one dentry or one mount crossing per iteration.
//
// The path is written backwards, from the end of a work area, a name after
// a '/' each step; the names are first copied whole into the area's last
// third (probe_read_kernel_str tells their length). The work area is the
// next free strjoin() level (3 string sizes): the verifier allows a copy of
// up to a string size at any position below a string size, so the path
// needs twice its size. A path longer than the string size keeps its end.
#include "codegen/emitter.h"

namespace dtrace::codegen {

using namespace bpf;

namespace {

// Loop state words: the dentry, its vfsmount, and where the path starts.
constexpr int kDentryWord = 0, kMountWord = 1, kStartWord = 2;
constexpr uint32_t kMaxSteps = 1024;  // dentries and mount crossings

}  // namespace

void ProgramEmitter::taskPath(bool root, Reg base, int32_t offset, uint32_t size) {
  if (joinDepth_ >= layout_.joinLevels) {
    fail(std::string(root ? "root" : "cwd") + " is nested too deeply in strjoin( ) calls");
    return;
  }
  const uint32_t n = layout_.stringTempSize;
  const int32_t pathArea = static_cast<int32_t>(layout_.joinOffset + joinDepth_ * 3 * n);
  const int32_t nameArea = pathArea + static_cast<int32_t>(2 * n);
  const int32_t fsOffset = kernelOffset("task_struct", "fs");
  const int32_t pathOffset = kernelOffset("fs_struct", root ? "root" : "pwd");
  const int32_t dentryOffset = kernelOffset("path", "dentry");
  const int32_t mntOffset = kernelOffset("path", "mnt");
  if (!error_.empty() || n < 2) return;

  Label noFs = as_.newLabel(), slash = as_.newLabel(), done = as_.newLabel();
  as_.emit(st(Size::B, R9, static_cast<int16_t>(pathArea + n - 1), 0));
  as_.emit(st(Size::DW, R9, static_cast<int16_t>(loopState(kStartWord)), n - 1));
  contextTask();
  as_.emit(mov64(R8, R0));
  readKernelWord(R8, R8, fsOffset);
  as_.jumpIf(BPF_JEQ, R8, 0, noFs);  // an exiting task
  readKernelWord(R6, R8, pathOffset + dentryOffset);
  as_.emit(stx(Size::DW, R9, static_cast<int16_t>(loopState(kDentryWord)), R6));
  readKernelWord(R6, R8, pathOffset + mntOffset);
  as_.emit(stx(Size::DW, R9, static_cast<int16_t>(loopState(kMountWord)), R6));
  joinDepth_++;  // the area stays ours while the callback is generated
  // The path, with its NUL, must fit the destination too: the work area is
  // rounded up to whole words.
  const int32_t lowestStart = static_cast<int32_t>(n - std::min(n, size));
  loop(kMaxSteps, [this, pathArea, nameArea, n, lowestStart](Label stop) {
    pathStep(pathArea, nameArea, n, lowestStart, stop);
  });
  joinDepth_--;

  as_.emit(ldx(Size::DW, R1, R9, static_cast<int16_t>(loopState(kStartWord))));
  as_.jumpIf(BPF_JGE, R1, static_cast<int32_t>(n - 1), slash);  // no name: the root itself
  as_.emit(mov64(R3, R9));
  as_.emit(alu64(BPF_ADD, R3, pathArea));
  as_.emit(alu64(BPF_ADD, R3, R1));
  as_.emit(mov64(R1, base));
  as_.emit(alu64(BPF_ADD, R1, offset));
  as_.emit(mov64(R2, static_cast<int32_t>(size)));
  as_.emit(call(BPF_FUNC_probe_read_kernel_str));
  as_.jump(done);
  as_.bind(slash);
  literalInto("/", base, offset, size);
  as_.jump(done);
  as_.bind(noFs);
  literalInto("", base, offset, size);
  as_.bind(done);
}

// One step up from the dentry in the loop state: at the root of a mount,
// over to its mount point in the parent mount (stop at the namespace's
// root mount, its own parent); at the root of a file system reached
// otherwise, stop; else prepend "/name" and go to the parent dentry.
// In the callback r9 is the scratch value; r7 and r8 survive helper calls.
void ProgramEmitter::pathStep(int32_t pathArea, int32_t nameArea, uint32_t size,
                              int32_t lowestStart, Label stop) {
  const int32_t mntRoot = kernelOffset("vfsmount", "mnt_root");
  const int32_t mountMnt = kernelOffset("mount", "mnt");
  const int32_t mountParent = kernelOffset("mount", "mnt_parent");
  const int32_t mountPoint = kernelOffset("mount", "mnt_mountpoint");
  const int32_t dParent = kernelOffset("dentry", "d_parent");
  const int32_t dName = kernelOffset("dentry", "d_name") + kernelOffset("qstr", "name");
  const auto state = [this](int word) { return static_cast<int16_t>(loopState(word)); };
  Label inDirectory = as_.newLabel(), next = as_.newLabel();

  as_.emit(ldx(Size::DW, R7, R9, state(kDentryWord)));
  as_.emit(ldx(Size::DW, R8, R9, state(kMountWord)));
  readKernelWord(R6, R8, mntRoot);
  as_.jumpIf(BPF_JNE, R6, R7, inDirectory);
  as_.emit(alu64(BPF_SUB, R8, mountMnt));  // container_of(vfsmount, struct mount, mnt)
  readKernelWord(R6, R8, mountParent);
  as_.jumpIf(BPF_JEQ, R6, R8, stop);
  as_.jumpIf(BPF_JEQ, R6, 0, stop);
  readKernelWord(R7, R8, mountPoint);
  as_.emit(stx(Size::DW, R9, state(kDentryWord), R7));
  as_.emit(alu64(BPF_ADD, R6, mountMnt));
  as_.emit(stx(Size::DW, R9, state(kMountWord), R6));
  as_.jump(next);

  as_.bind(inDirectory);
  readKernelWord(R6, R7, dParent);
  as_.jumpIf(BPF_JEQ, R6, R7, stop);
  as_.jumpIf(BPF_JEQ, R6, 0, stop);
  as_.emit(stx(Size::DW, R9, state(kDentryWord), R6));
  readKernelWord(R6, R7, dName);
  // The name, then its length: r7 = length, bounded for the verifier.
  as_.emit(mov64(R1, R9));
  as_.emit(alu64(BPF_ADD, R1, nameArea));
  as_.emit(mov64(R2, static_cast<int32_t>(size)));
  as_.emit(mov64(R3, R6));
  as_.emit(call(BPF_FUNC_probe_read_kernel_str));
  as_.jumpIf(BPF_JSLT, R0, 1, stop);
  as_.emit(mov64(R7, R0));
  as_.emit(alu64(BPF_SUB, R7, 1));
  as_.jumpIf(BPF_JGT, R7, static_cast<int32_t>(size - 1), stop);
  // r8 = where "/name" starts: before the path so far, which must fit.
  as_.emit(ldx(Size::DW, R8, R9, state(kStartWord)));
  as_.jumpIf(BPF_JGT, R8, static_cast<int32_t>(size - 1), stop);
  as_.emit(alu64(BPF_SUB, R8, R7));
  as_.emit(alu64(BPF_SUB, R8, 1));
  as_.jumpIf(BPF_JSLT, R8, lowestStart, stop);  // too long: keep the end already built
  as_.emit(stx(Size::DW, R9, state(kStartWord), R8));
  as_.emit(mov64(R1, R9));
  as_.emit(alu64(BPF_ADD, R1, R8));
  as_.emit(st(Size::B, R1, static_cast<int16_t>(pathArea), '/'));
  as_.emit(alu64(BPF_ADD, R1, pathArea + 1));
  as_.emit(mov64(R2, R7));
  as_.emit(mov64(R3, R9));
  as_.emit(alu64(BPF_ADD, R3, nameArea));
  as_.emit(call(BPF_FUNC_probe_read_kernel));
  as_.bind(next);
}

}  // namespace dtrace::codegen
