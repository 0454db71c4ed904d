// Generates the one eBPF program that runs, for one probe, every clause
// enabled on it in script order (its ECBs).
//
// Register conventions in generated code:
//   r6  accumulator: every integer expression leaves its value here,
//       sign- or zero-extended to 64 bits according to its type
//   r7  base pointer of the map value a string is being written into
//   r8  short-lived temporary (never live across a nested evaluation)
//   r9  per-CPU scratch value (record under construction, keys, this->)
//   fp-8  the probe context pointer; fp-12 a map's slot in its array of
//   maps (u32); fp-16 a zero u32 map key
//   fp-20..fp-40  fault details; below fp-64 spill slots
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bpf/assembler.h"
#include "codegen/layout.h"
#include "ir/maps.h"
#include "ir/probe_table.h"
#include "providers/probe.h"
#include "providers/tracepoint_machinery.h"
#include "sema/symbols.h"
#include "sema/types.h"
#include "util/result.h"

namespace dtrace::codegen {

// The load/store width for a value of `bytes` bytes (1, 2, 4, else 8).
inline bpf::Size sizeOf(uint32_t bytes) {
  switch (bytes) {
    case 1:
      return bpf::Size::B;
    case 2:
      return bpf::Size::H;
    case 4:
      return bpf::Size::W;
    default:
      return bpf::Size::DW;
  }
}

// A struct, union or non-char array: copied as bytes, never in a register.
bool isAggregate(const sema::Type* t);

// Whether the storage `target` names in its D variable is selected by a
// run-time index (v.a[i].m).
bool hasVariableIndex(const ast::Expr& target);

// The bytes the scalar or bit-field `target` names is read and written with.
uint32_t accessSize(const ast::Expr& target);

// Fixed stack slots of every generated program.
inline constexpr int16_t kCtxSlot = -8;
inline constexpr int16_t kZeroKeySlot = -16;
// The slot of a shared map in its array of maps (u32), as it is looked up.
inline constexpr int16_t kMapSlotKeySlot = -12;
inline constexpr int16_t kFaultActionSlot = -20;  // u32
inline constexpr int16_t kFaultKindSlot = -24;    // u32
inline constexpr int16_t kFaultAddrSlot = -32;    // u64
inline constexpr int16_t kFaultPcSlot = -36;      // u32
// Shared programs (Provider::sharesPrograms): the probe-table key (u32),
// the attach cookie, and the fired probe's probe-table entry.
inline constexpr int16_t kProbeKeySlot = -40;
inline constexpr int16_t kCookieSlot = -48;
inline constexpr int16_t kProbeEntrySlot = -56;
// timestamp as first read in this probe firing (0: not read yet): DTrace
// samples it once per firing, so every clause sees the same value.
inline constexpr int16_t kTimestampSlot = -64;
// The current task, kept by the prologue of a program whose clauses use
// per-task variables (DynamicLayout::perTask: bpf_get_current_task_btf's,
// which helpers take) and of a syscall probe's (its guard's: perhaps only
// for loads, types/readable_kernel_pointer.h).
inline constexpr int16_t kTaskSlot = -72;
inline constexpr int kFirstSpillSlot = -80;

// The maps and probe table the driver gives a program (ir/maps.h,
// ir/probe_table.h), as the emitter names them.
using ir::MapFds;
using ir::MapRef;
using ir::ProbeTableEntry;

struct EnabledClause {
  const ClauseLayout* layout = nullptr;
  uint32_t epid = 0;
};

// Offsets of kernel structure members, from BTF, for built-ins such as
// ppid: `memberOffset("task_struct", "real_parent")`.
using MemberOffsetFn = std::function<Result<uint32_t>(const char* type, const char* member)>;

class ProgramEmitter {
 public:
  ProgramEmitter(const providers::Probe& probe, Activity expectedState, const Layout& layout,
                 const MapFds& maps, sema::TypeTable& types, MemberOffsetFn memberOffset);

  Result<std::vector<bpf::Insn>> emit(const std::vector<EnabledClause>& clauses);
  // After emit(), for -S: where each clause's code starts in the program,
  // then where the code after the last clause starts.
  const std::vector<size_t>& clauseStarts() const { return as_.marks(); }

  // The ERROR probe's clauses, run inline wherever a clause faults (as
  // DTrace fires ERROR in probe context, before the next clause runs).
  void setErrorClauses(const providers::Probe& errorProbe, std::vector<EnabledClause> clauses) {
    errorProbe_ = &errorProbe;
    errorClauses_ = std::move(clauses);
  }

 private:
  // emitter.cpp: program, clauses, statements, actions, aggregations
  void prologue();
  void clause(const EnabledClause& ec);
  void statements(const std::vector<ast::StmtPtr>& stmts);
  void statement(const ast::Stmt& stmt);
  void action(const ast::Expr& call);
  void exitAction();  // the status is in r6
  // emit_actions.cpp: actions done in probe context, and tracemem()
  void signalAction(const ast::Expr& call);     // raise(sig), stop()
  void stringCharacter(const ast::Expr& call);  // s[i]
  void readableScratch(uint32_t size);          // r6: an address about to be read
  void chillAction(const ast::Expr& call);
  // emit_speculation.cpp: speculation() into r6; speculate(), commit() and
  // discard() record their tag; speculate() takes room for the clause's
  // record within specsize, or ends the clause.
  void speculationValue();
  void speculationAction(const ast::Expr& call, const ir::Action& action, int32_t data);
  // r1: the state word of the ID in r6
  int dtraceActions(const ast::Expr& statement) const;
  void speculationSlot(bpf::Label inactive, bool isSpeculate);
  void reserveSpeculativeRoom(int16_t tagField);
  void speculativeRecordAllowed(bpf::Label skip);
  void busyWait();  // until ktime reaches loopState(0) + loopState(1)
  // tracemem() and printm(): the bytes at `address`, of which `dynamicSize`
  // (when given) are printed.
  void tracememAction(const ast::Expr& address, const ast::Expr* dynamicSize,
                      const ir::Action& action, int32_t data);
  void printAction(const ast::Expr& call, const ir::Action& action, int32_t data);
  // emit_aggregation.cpp: @name[keys] = func(args)
  void aggregation(const ast::Expr& assign);
  void chargeAggregationEntry(const ir::Aggregation& agg, bpf::Label dropped);
  void foldIntoAggregation(const ir::Aggregation& agg, int16_t valueSlot,
                           int16_t incrementSlot);                         // into the entry at r0
  void distributionBucket(const ir::Aggregation& agg, int16_t valueSlot);  // into r6
  void addSquare(int16_t valueSlot);  // stddev's 128-bit sum of squares
  void log2Floor();                   // r7 = floor(log2(r6)), r6 > 0
  void quantizeBucket();              // r6 = the bucket of the value in r6
  void lquantizeBucket(const ir::AggParams& p);
  void llquantizeBucket(const ir::AggParams& p);
  void storeField(const ast::Expr& value, const ir::Field& field, bpf::Reg base,
                  int32_t baseOffset);
  void emitRecord();
  // Sends the record at `header` in scratch (its header, then `dataSize`
  // bytes) to its CPU's ring, stamped when the layout asks; a full ring
  // (or none) counts a drop. A clause's record wakes the consumer as
  // wakeFlags says, a fault record only when the consumer has caught up.
  // Jumps to `skipped` (checks that keep the record out) end here too.
  void sendRecord(int32_t header, uint32_t dataSize, bool clauseRecord, bpf::Label skipped);
  void fillRoomLeft(bpf::Label skip);
  void wakeFlags(bpf::Reg flags);  // the ringbuf_output flags for this record (ring in r7)
  // r7 = the ring of the CPU named by the record header at `header` in
  // scratch; to `missing` when there is none.
  void loadCpuRing(int32_t header, bpf::Label missing);
  // The record's timestamp after its `dataSize` bytes of data, when the
  // layout asks for one; returns the bytes it adds to the record.
  int32_t stampRecord(int32_t header, uint32_t dataSize);
  // The clause's EPID stored as a u32 at base+offset (clobbers r1).
  void storeEpid(bpf::Reg base, int16_t offset);
  // Whether this clause learns its probe's identity at run time (a shared
  // program's clause; never the inline ERROR clauses).
  bool identityAtRunTime() const { return maps_.probeTable >= 0 && !inErrorClause_; }
  // r8 = the fired probe's probe-table entry.
  void loadProbeEntry();
  void faultHandler();
  void runErrorClauses();                   // inline, after a fault record is sent
  void lookupCounters(bpf::Label missing);  // r0 = this CPU's ir::Counters
  struct Budget {
    size_t generationOffset;
    size_t bytesOffset;
  };
  void takeBytes(Budget budget, uint32_t bytes, uint64_t limit, bpf::Label over);
  void bumpCounter(uint32_t counterOffset);
  // Map helpers on `fd` with the key (and value) at offsets in scratch;
  // r0 holds the result (a value pointer, or 0 on success). A shared map
  // missing from its array is a missing element (lookup), or a failure.
  void mapLookup(int fd, int32_t key) { mapLookup(MapRef{fd}, key); }
  void mapLookup(const MapRef& map, int32_t key);
  void mapDelete(const MapRef& map, int32_t key);
  void mapUpdate(const MapRef& map, int32_t key, int32_t value, int32_t flags);
  // r1 = the map; r0-r5 are clobbered. A shared map is looked up in its
  // array: if absent (never, once the consumer filled the arrays), r0 = 0
  // and `missing` is jumped to.
  void loadMap(const MapRef& map, bpf::Label missing);

  // emit_expr.cpp, emit_operators.cpp, emit_strings.cpp: expressions
  void value(const ast::Expr& e);
  void constant(int64_t v, bpf::Reg dst = bpf::R6);
  void staticStorage(const ast::Expr& target);  // r1 = a global's or clause-local's bytes
  void addVariableIndexes(bpf::Reg ptr, const ast::Expr& target);
  void storageAddress(const ast::Expr& e);  // r6 = where e's bytes are in its D variable
  void loadFrom(bpf::Reg ptr, const ast::Expr& target);
  void storeTo(bpf::Reg ptr, const ast::Expr& target);
  // Any variable reference (x, this->x, self->x, a[k]): r6 = its value,
  // or store r6 into it.
  void loadTarget(const ast::Expr& target);
  void storeTarget(const ast::Expr& target);
  // emit_dynamic.cpp: associative arrays and thread-locals
  int32_t dynamicKey(const ast::Expr& target, const sema::Variable& v);
  void loadDynamic(const ast::Expr& target);
  void storeDynamic(const ast::Expr& target);
  void dynamicMemberAddress(const ast::Expr& target);  // r0 = its bytes in the element, or 0
  void storeDynamicMember(const ast::Expr& target);
  // What reading an unset (NULL) string does: "" for an operand compared
  // or assigned, else the invalid address fault DTrace takes at NULL, or
  // at NULL plus i for s[i].
  struct UnsetStringRead {
    bool asEmpty = false;
    std::optional<int16_t> indexSlot;  // s[i]: the stack slot holding i
    std::optional<int16_t> flagSlot;   // set to 1 there when it was NULL
  };
  void unsetStringInto(const UnsetStringRead& how, bpf::Reg base, int32_t offset, uint32_t size);
  void dynamicStringInto(const ast::Expr& target, bpf::Reg base, int32_t offset, uint32_t size,
                         const UnsetStringRead& unset);
  // A string variable's bytes at r8 (global or clause-local), or its NULL.
  void staticStringInto(const ast::Expr& e, bpf::Reg base, int32_t offset, uint32_t size,
                        const UnsetStringRead& unset);
  void storeDynamicString(const ast::Expr& target, const ast::Expr& value);
  void dynamicLookup(const sema::Variable& v, int32_t key);  // r0 = value pointer or 0
  // r0 = the calling thread's element of a per-task variable, made (zero)
  // first when `create`; 0 if it has none (or, creating, none could be made).
  void taskElement(const MapRef& map, bool create);
  // Stores the value at dynamicValueOffset under `key`, or deletes the
  // element when `present` is 0 (DTrace frees a variable set to 0 or "").
  void deleteDynamic(const ast::Expr& target);  // `x = 0` of a whole struct element
  void storeOrDelete(const sema::Variable& v, int32_t key, bpf::Reg present);
  void unary(const ast::Expr& e);
  void binary(const ast::Expr& e);
  void arithmetic(ast::Op op, const sema::Type* type, bool rightIsConstant, int64_t rightConst);
  void compare(const ast::Expr& e);
  void compareStrings(const ast::Expr& e);  // r6 = strcmp(a, b) <op> 0
  void logical(const ast::Expr& e);
  void assign(const ast::Expr& e);
  void increment(const ast::Expr& e);
  void ternary(const ast::Expr& e);
  void normalize(bpf::Reg r, const sema::Type* t);
  void typecast(bpf::Reg r, const sema::Type* from, const sema::Type* to);
  void stringInto(const ast::Expr& e, bpf::Reg base, int32_t offset, uint32_t size);
  void charPointerInto(const ast::Expr& e, bpf::Reg base, int32_t offset, uint32_t size,
                       const UnsetStringRead& unset);
  bool variableStringInto(const ast::Expr& e, bpf::Reg base, int32_t offset, uint32_t size,
                          const UnsetStringRead& unset);
  // stringInto for an operand compared or assigned (see emit_strings.cpp).
  void stringValueInto(const ast::Expr& e, bpf::Reg base, int32_t offset, uint32_t size);
  // The same, noting in a stack slot it pushes (the caller pops it) 1 when
  // `e` was a NULL string, else 0.
  int16_t stringValueNotingNull(const ast::Expr& e, bpf::Reg base, int32_t offset, uint32_t size);
  void literalInto(const std::string& text, bpf::Reg base, int32_t offset, uint32_t size);
  void probeFieldInto(sema::Builtin field, bpf::Reg base, int32_t offset, uint32_t size);
  void copyString(bpf::Reg src, int32_t srcOffset, uint32_t srcSize, bpf::Reg base, int32_t offset,
                  uint32_t size);
  void divideByZeroCheck(bpf::Reg divisor);
  void fault(ir::Fault kind);  // jump to the clause's fault handler
  // A fault DTrace raises outside DIF emulation: reported at no DIF offset.
  void faultOutsideDif(ir::Fault kind);
  void fault(ir::Fault kind, bpf::Reg address);
  // dst = the address `pointer` holds, as a number (see emitter.cpp).
  void pointerValue(bpf::Reg dst, bpf::Reg pointer);
  // emit_pointer.cpp: memory, members, translators
  void address(const ast::Expr& e);  // r6 = the address of an object in memory
  void loadMemory(const sema::Type* t, uint32_t bitOffset, uint32_t bitWidth);
  void extractBits(uint32_t offset, uint32_t width, const sema::Type* t);
  void storeMemory(const ast::Expr& e);  // *e = r6
  void pointerArithmetic(const ast::Expr& e);
  void bindTranslatorInput(const ast::Expr& member);
  void bindTranslatorInput(const ast::Expr& input, const sema::Variable& inputVariable);
  void unbindTranslatorInput();
  void loadTranslatorInput(const sema::Variable& v);
  // emit_aggregate.cpp: whole struct, union and array values, built at
  // r9+offset (a record field, a clause-local, or the staging area).
  void aggregateInto(const ast::Expr& e, int32_t offset, uint32_t size);
  void translateInto(const ast::Expr& xlate, int32_t offset, uint32_t size);
  void assignAggregate(const ast::Expr& assign);
  void copyFromAddress(bpf::Reg base, int32_t offset, uint32_t size);  // from address r6
  void zeroFill(int32_t offset, uint32_t size);
  // ---- emit_builtin.cpp: built-in variables ----
  void builtin(const sema::Variable& v);
  void firingTimestamp();  // r6 = timestamp, read once per probe firing
  void probeArg(int index);
  void probeArgFrom(const providers::ArgSource& a);
  bool isUserAddressArgument(const ast::Expr& e) const;
  void readAtR3(bool user, uint8_t size, bool isSigned);  // r6 = memory at r3
  void probeArgRead(const providers::ArgSource& a);       // probeArgFrom before negation
  void ctxMemberRead(const providers::ArgSource& a);
  void recordedRead(const providers::ArgSource& a);    // Recorded, SinceRecorded
  void exitReason();                                   // r6 = the exiting task's CLD_* reason
  void userMemoryRead(const providers::ArgSource& a);  // an operand a probe names in user memory
  // Jumps to `skip` unless every guard of the probe passes.
  void probeGuards(bpf::Label skip);                   // r6 = the argument a describes
  void builtinArray(const ast::Expr& index);           // r6 = args[i], uregs[i]
  void threadCpuTime();                                // r6 = vtimestamp
  void taskMember(const char* member, uint32_t size);  // r6 = current->member (a u64 chain)
  void taskMemberByLoads(const std::vector<std::string>& parts, uint32_t size);
  // emit_context_task.cpp: the task the probe fires for (r0; r1-r5 clobbered)
  bool hasContextTask() const;
  // r0 = the current task for loads: kTaskSlot's, else found anew.
  void currentTaskForLoads();
  void contextTask();     // r0 = its task_struct pointer
  void contextPidTgid();  // r0 = tgid << 32 | pid, as bpf_get_current_pid_tgid
  void contextUidGid();   // r0 = gid << 32 | uid, as bpf_get_current_uid_gid
  void contextComm(bpf::Reg base, int32_t offset, uint32_t size);  // its name at base+offset
  void contextTaskPair(const char* pointerType, const char* pointer, const char* type,
                       const char* low, const char* high);
  void savedUserRegister(const char* ptRegsMember);  // r6 = the thread's saved user register
  // String-valued built-ins (cwd, root) into base+offset; false for others.
  bool builtinString(const sema::Variable& v, bpf::Reg base, int32_t offset, uint32_t size);
  // Offset of a kernel struct member from BTF; fails the program when unknown.
  int32_t kernelOffset(const char* type, const char* member);
  // dst = the u64 at kernel address+offset (0 when unreadable), through a
  // stack slot; r0-r5 are clobbered. dst and address are r6-r9.
  void readKernelWord(bpf::Reg dst, bpf::Reg address, int32_t offset);
  // emit_builtin_stack.cpp: caller, ucaller, stackdepth, ustackdepth
  // Kernel frames of the probe's own machinery: -1 not meaningful,
  // kMachineryByAddress when recognised at run time by address.
  static constexpr int kMachineryByAddress = 1000;
  int machineryFrames();
  const std::vector<providers::AddressRange>& machineryRanges();
  void skipMachinery(int frame, bool wantPc);
  void scanMachinery(bpf::Reg base, int32_t offset, int frame, bool wantPc);
  void stackFrame(bool user, int frame);  // r6 = that frame's PC, or 0
  void stackDepth(bool user);             // r6 = the number of frames
  // emit_stack.cpp: stack(), ustack(), sym(), usym(), ... into a record
  // field or key at base+offset (base r7-r9)
  void codeAddressInto(const ast::Expr& call, const ir::Field& field, bpf::Reg base,
                       int32_t offset);
  void kernelStackInto(bpf::Reg base, int32_t offset, uint32_t size);
  // emit_unwind.cpp: ustack() by call frame information
  void userStackByCfi(bpf::Reg base, int32_t offset, uint32_t size);
  void userCallerByCfi();  // r6 = ucaller
  void userDepthByCfi();   // r6 = ustackdepth
  void unwindUser(uint32_t frames, int32_t area, bpf::Label noTables);
  void unwindFrame(int32_t area, uint32_t frames, bpf::Label stop);
  void lookUpByKey(int mapFd, bpf::Reg key, bpf::Label missing);
  void readUserWord(int word, bpf::Reg address, int32_t displacement);
  void insertCallerFrame(bpf::Reg base, int32_t offset, uint32_t size);
  void getStack(bpf::Reg base, int32_t offset, uint32_t size);  // flags in r4
  // emit_builtin_path.cpp: cwd, root
  void taskPath(bool root, bpf::Reg base, int32_t offset, uint32_t size);
  void processArguments(bpf::Reg base, int32_t offset, uint32_t size);  // execargs
  void copyInString(const ast::Expr& call, bpf::Reg base, int32_t offset, uint32_t size);
  void pathStep(int32_t pathArea, int32_t nameArea, uint32_t size, int32_t lowestStart,
                bpf::Label stop);
  // ---- end of emit_builtin.cpp ----
  // ---- emit_subr.cpp: subroutines ----
  void subroutineValue(const ast::Expr& call);  // r6 = an integer-valued subroutine
  void readStringAt(bool user, bpf::Reg address, bpf::Reg base, int32_t offset, uint32_t size);
  // r6 = strlen of the string at base+offset in a buffer of `size` bytes.
  void stringLength(bpf::Reg base, int32_t offset, uint32_t size);
  void changeCase(bool upper, bpf::Reg base, int32_t offset, uint32_t size);
  void substring(const ast::Expr& call, bpf::Reg base, int32_t offset, uint32_t size);
  void integerToString(const ast::Expr& number, bpf::Reg base, int32_t offset, uint32_t size);
  // String-valued subroutines (strjoin, toupper, ...) written into base+offset.
  bool subroutineString(const ast::Expr& call, bpf::Reg base, int32_t offset, uint32_t size);
  void joinString(const ast::Expr& call, bpf::Reg base, int32_t offset, uint32_t size);
  int32_t joinInPlace(const ast::Expr& call, uint32_t level);
  // A subroutine's two string operand buffers at the current nesting level.
  int32_t subrArea(int which);
  // Evaluates a string operand into subrArea(which), one nesting level deeper.
  void operandInto(const ast::Expr& e, int which);
  void operandValue(const ast::Expr& e);  // r6 = an integer operand, one level deeper
  int32_t loopState(int word) const;      // offset of a u64 of the loop state
  void copySlice(int32_t area, bpf::Reg start, bpf::Reg count, bpf::Reg base, int32_t offset,
                 uint32_t size);  // base+offset = area[start, start+count), NUL-terminated
  void scratchAddress();          // r0 = the scratch value's address, as an integer
  void plainAddress(bpf::Reg r);  // r, a pointer into a map, as a plain number
  // emit_loop.cpp: bpf_loop callbacks, emitted after the main program. In the
  // callback r9 is the scratch value and r6 the iteration index; jumping to
  // `stop` ends the loop, falling off the end goes on to the next iteration.
  void loop(uint32_t iterations, std::function<void(bpf::Label stop)> body);
  // The same, the body finding `passed`'s value (a pointer the verifier
  // keeps typed) in the context word r2 points at + 8 when it starts.
  void loopPassing(bpf::Reg passed, uint32_t iterations, std::function<void(bpf::Label stop)> body);
  void emitCallbacks();  // called once, after the main program's exit
  // r0 = byte area[index] in a callback, or jumps to `outside` when index
  // (unsigned) is not below `limit`.
  void loadByte(int32_t area, bpf::Reg index, uint32_t limit, bpf::Label outside);
  // emit_string_search.cpp: index, rindex, strstr, strchr, strrchr
  void stringSearch(const ast::Expr& call);  // r6 = position or -1; operands in subrArea(0/1)
  void searchString(const ast::Expr& call, bpf::Reg base, int32_t offset, uint32_t size);
  // emit_string_path.cpp: basename, dirname, cleanpath
  void pathString(const ast::Expr& call, bpf::Reg base, int32_t offset, uint32_t size);
  void baseOrDirName(bool dir, bpf::Reg base, int32_t offset, uint32_t size);
  void cleanPath(bpf::Reg base, int32_t offset, uint32_t size);
  // emit_string_parse.cpp: strtok, strtoll
  void tokenize(const ast::Expr& call, bpf::Reg base, int32_t offset, uint32_t size);
  // emit_string_json.cpp: json(s, selector)
  void jsonValue(const ast::Expr& call, bpf::Reg base, int32_t offset, uint32_t size);
  void stringToInteger(const ast::Expr& call);
  // emit_inet.cpp: inet_ntoa, inet_ntoa6, inet_ntop, link_ntop
  void inetString(const ast::Expr& call, bpf::Reg base, int32_t offset, uint32_t size);
  void linkString(const ast::Expr& call, bpf::Reg base, int32_t offset, uint32_t size);
  // `length` bytes of kernel (or scratch) memory at r6 into area, or an
  // invalid address fault.
  void readAddress(int32_t area, int32_t length);
  void inet4(int32_t bytes);  // dotted quad of 4 bytes, written backward at loopState(0)
  void inet6(bool full, int32_t bytes);
  void putBack(bpf::Reg byte, int32_t out);  // out[pos--] = byte, pos at loopState(0)
  // emit_memory.cpp: alloca, copyin, copyinto, bcopy, progenyof
  bool memorySubroutine(const ast::Expr& call);  // r6 = its value
  // r0 = r9 + allocaOffset + the allocated offset of `size` bytes (a register
  // or a constant); faults with NoScratch when the area is full.
  void allocate(bpf::Reg size);
  void translatedStringAddress(const ast::Expr& e);  // r6 = a string member's bytes, alloca'd
  void progenyOf(const ast::Expr& call);
  void resetAlloca();  // at the start of every clause
  // bcopy() and copyinto(): r0 = a map-value pointer through which the
  // `size` (a register, r6-r8, not `address`) bytes at D address
  // `address` may be written, which must lie in alloca'd scratch memory;
  // the verifier knows size <= allocaSize. Faults (BadAddr with the
  // address) otherwise.
  void writableRange(bpf::Reg address, bpf::Reg size);
  // emit_writable.cpp: where a store through a pointer may go
  // (dtrace_canstore). r0 = a map-value pointer through which `size` bytes
  // at D address `address` (r6, r7 or r8, kept) may be written, aligned to
  // `alignment`; faults with BadAddr (then BadAlign) otherwise. r1-r5 and
  // r7 are clobbered. False when no memory could hold the bytes: the code
  // always faults, and the caller emits no store.
  bool writablePointer(bpf::Reg address, uint32_t size, uint32_t alignment = 1);
  bool writableStatic(int16_t addressSlot, uint32_t size, bpf::Label found);
  void findElement(uint32_t dynamicId, int16_t addressSlot, bpf::Label missing);
  bpf::Label elementCallback(uint32_t dynamicId);
  std::map<uint32_t, bpf::Label> elementCallbacks_;  // by dynamic variable id
  int16_t storeWord(int word) const;
  uint32_t subrDepth_ = 0;  // nesting of subroutine operands being evaluated
  // Code emitted after the program: bpf_loop bodies, and map callbacks
  // (bpf_for_each_map_elem: r6 = the element's key, r7 = its value).
  enum class CallbackKind { Loop, MapElement };
  struct Callback {
    bpf::Label entry;
    std::function<void(bpf::Label)> body;
    CallbackKind kind = CallbackKind::Loop;
  };
  std::vector<Callback> callbacks_;
  // ---- end of emit_subr.cpp ----

  int16_t pushSlot();
  void popSlot();
  void fail(std::string message);

  const providers::Probe* probe_;  // the ERROR probe while its clauses run inline
  std::optional<std::vector<providers::AddressRange>> machineryRanges_;  // read on first use
  Activity expected_;
  const Layout& layout_;
  const MapFds& maps_;
  sema::TypeTable& types_;
  bool taskInSlot_ = false;  // kTaskSlot holds the current task
  MemberOffsetFn memberOffset_;

  bpf::Assembler as_;
  std::string error_;
  int slots_ = 0;
  // Current clause.
  const ClauseLayout* clause_ = nullptr;
  uint32_t epid_ = 0;
  uint32_t clausePosition_ = 0;  // of the clause being emitted, in this program
  uint32_t clauseCount_ = 0;     // clauses in this program
  // DTrace's number of the action being generated, which faults name and
  // ERROR's arg2 is (0 in the predicate): dt_cc.c makes several actions of
  // some statements (see dtraceActions). firstAction_ is the statement's
  // first, nextAction_ the next statement's.
  int actionIndex_ = 0;
  int firstAction_ = 0;
  int nextAction_ = 1;
  bpf::Label nextClause_{}, fault_{};
  bool faultUsed_ = false;
  const providers::Probe* errorProbe_ = nullptr;
  std::vector<EnabledClause> errorClauses_;
  bool inErrorClause_ = false;       // a fault in an ERROR clause does not fire ERROR again
  UnsetStringRead unsetStringRead_;  // for the next stringInto's own operand
  UnsetStringRead nullResult_;       // for a string subroutine's NULL result
  uint32_t dynamicDepth_ = 0;        // nesting of dynamic-variable keys being built
  uint32_t joinDepth_ = 0;           // nesting of strjoin() calls
  // Translator inputs being evaluated, innermost last: (input, stack slot).
  std::vector<std::pair<const sema::Variable*, int16_t>> translatorInputs_;
};

}  // namespace dtrace::codegen
