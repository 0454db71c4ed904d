#include "codegen/layout.h"

#include <algorithm>

#include "codegen/type_info.h"
#include "ir/subroutine.h"
#include "sema/checker.h"

namespace dtrace::codegen {

namespace {

uint32_t alignUp(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
uint32_t alignmentOf(const sema::Type* t) {
  if (t->isInteger() || t->isPointer())
    return std::max<uint32_t>(1, std::min<uint32_t>(t->size, 8));
  return 8;
}

// Places a value of type t at the end of a growing area; returns its offset.
uint32_t place(uint32_t& end, const sema::Type* t) {
  uint32_t offset = alignUp(end, alignmentOf(t));
  end = offset + t->size;
  return offset;
}

// A global or clause-local variable; a string's NULL marker comes first.
// An array is aligned as its elements are (as C lays out `short a[5]`);
// a scalar takes a whole word (holdsRegister).
uint32_t placeVariable(uint32_t& end, const sema::Variable& v) {
  const sema::Type* t = v.type;
  if (holdsRegister(v)) {
    const uint32_t offset = alignUp(end, 8);
    end = offset + 8;
    return offset;
  }
  if (t->isString()) end = alignUp(end, 8) + ir::kNullMarkerSize;
  const sema::Type* element = t;
  while (element->isArray() && element->target) element = element->target;
  uint32_t offset = alignUp(end, alignmentOf(element));
  end = offset + t->size;
  return offset;
}

// `size` unsigned bytes at the next 8-aligned offset (a dump, a word).
ir::Field alignedField(uint32_t& end, uint32_t size) {
  ir::Field f;
  f.offset = alignUp(end, 8);
  f.size = size;
  f.kind = ir::DataKind::Unsigned;
  end = f.offset + f.size;
  return f;
}

ir::Field fieldFor(uint32_t& end, const sema::Type* t) {
  ir::Field f;
  f.offset = place(end, t);
  f.size = t->size;
  f.kind = dataKindOf(t);
  f.isPointer = t->isPointer();
  return f;
}

struct ClauseWalker {
  ClauseLayout& out;
  Layout& layout;
  TypeInfoBuilder& typeInfo;
  uint32_t stringSize;  // a string's bytes in a record: strsize and the NUL
  uint32_t end = 0;
  int depth = 0;  // inside an if-statement when > 0

  void statements(std::vector<ast::StmtPtr>& stmts) {
    for (auto& s : stmts) statement(*s);
  }
  void statement(ast::Stmt& s) {
    switch (s.kind) {
      case ast::StmtKind::Block:
        statements(s.body);
        break;
      case ast::StmtKind::If:
        depth++;
        statements(s.body);
        statements(s.elseBody);
        depth--;
        break;
      case ast::StmtKind::Expr:
        if (s.expr->kind == ast::ExprKind::Call && sema::isActionName(s.expr->text)) {
          action(*s.expr);
        }
        break;
      case ast::StmtKind::Empty:
        break;
    }
  }
  void action(ast::Expr& call) {
    ir::Action a;
    a.loc = call.loc;
    a.kind = *ir::actionNamed(call.text);
    if (ir::isDestructive(a.kind)) layout.destructive = true;
    const bool printaFormat =
        a.kind == ir::ActionKind::Printa && call.operands[0]->kind == ast::ExprKind::StringLiteral;
    if (ir::takesFormat(a.kind) || printaFormat) {
      const std::string& fmt = call.operands[0]->text;
      auto it = std::find(layout.formats.begin(), layout.formats.end(), fmt);
      a.formatIndex = static_cast<uint32_t>(it - layout.formats.begin());
      if (it == layout.formats.end()) layout.formats.push_back(fmt);
      a.hasFormat = true;
    }
    if (ir::actsOnAggregations(a.kind)) {
      for (const auto& operand : call.operands) {
        if (operand->kind == ast::ExprKind::AggregationRef) {
          a.aggregations.push_back(operand->variable->aggregationId);
        }
      }
    }
    switch (a.kind) {
      case ir::ActionKind::Trace:
      case ir::ActionKind::Exit:
      case ir::ActionKind::Printf:
      case ir::ActionKind::System:
      case ir::ActionKind::Freopen:
      case ir::ActionKind::Trunc:
      case ir::ActionKind::Normalize:
      case ir::ActionKind::Setopt:
        for (size_t i = ir::firstRecordedArgument(a.kind); i < call.operands.size(); i++) {
          const ast::Expr& argument = *call.operands[i];
          ir::Field f = fieldFor(end, argument.type);
          // A string constant takes strsize bytes in the buffer, as every
          // D string does in DTrace's, so that buffer space is spent as
          // there (its type is only as long as its text).
          if (argument.kind == ast::ExprKind::StringLiteral && f.size < stringSize - 1) {
            end += stringSize - 1 - f.size;
            f.size = stringSize - 1;
          }
          a.fields.push_back(f);
        }
        break;
      case ir::ActionKind::Tracemem:
      case ir::ActionKind::Printm: {
        // The bytes, then (with tracemem's third argument) how many of them
        // to print.
        const ast::Expr& size = *call.operands[a.kind == ir::ActionKind::Printm ? 0 : 1];
        a.fields.push_back(alignedField(end, static_cast<uint32_t>(*size.constValue)));
        if (a.kind == ir::ActionKind::Tracemem && call.operands.size() > 2) {
          a.fields.push_back(alignedField(end, 8));
        }
        break;
      }
      case ir::ActionKind::Print: {
        // A pointer prints as its address and the object it points to.
        const sema::Type* t = call.operands[0]->type;
        if (t->isPointer()) {
          a.fields.push_back(fieldFor(end, t));
          t = t->target;
        }
        a.fields.push_back(fieldFor(end, t));
        a.typeIndex = typeInfo.describe(t);
        break;
      }
      case ir::ActionKind::Stack:
      case ir::ActionKind::Symbol:  // the checker typed the call as its record field
        a.fields.push_back(fieldFor(end, call.type));
        break;
      case ir::ActionKind::Speculate:
      case ir::ActionKind::Commit:
      case ir::ActionKind::Discard: {
        a.fields.push_back(alignedField(end, 8));
        if (a.kind == ir::ActionKind::Speculate) out.speculationTagOffset = a.fields[0].offset;
        break;
      }
      case ir::ActionKind::Ftruncate:
      case ir::ActionKind::Raise:
      case ir::ActionKind::Stop:
      case ir::ActionKind::Chill:
      case ir::ActionKind::Printa:
      case ir::ActionKind::Clear:
      case ir::ActionKind::Denormalize:
        break;  // nothing recorded: the record still says the clause ran
    }
    if (depth > 0) out.hasActionMask = true;
    int index = static_cast<int>(out.orderedActions.size());
    out.actions[&call] = {a, index};
    out.orderedActions.push_back(a);
  }
};

// The scratch space a call's subroutine takes (the table's).
ir::SubroutineScratch scratchOf(const ast::Expr* e) {
  if (!e || e->kind != ast::ExprKind::Call || !e->subroutine) return ir::SubroutineScratch::None;
  return ir::subroutineInfo(*e->subroutine).scratch;
}

// What a program needs beyond the fixed scratch areas: bpf_loop state (the
// cwd and root built-ins walk paths in a loop) and the subroutines' areas.
struct ScratchNeeds {
  bool loops = false;
  bool subroutines = false;
  bool chill = false;             // a busy-wait loop and the per-CPU chill accounting
  bool speculations = false;      // speculation(), speculate(), commit() or discard()
  uint32_t joinLevels = 0;        // strjoin(), cwd and root nested in one another
  uint32_t subrLevels = 0;        // scratch subroutines nested in one another's operands
  uint32_t keyLevels = 0;         // dynamic variables read within one another's keys
  uint32_t kernelStackBytes = 0;  // the largest stack() field
  uint32_t userStackBytes = 0;    // the largest ustack() or jstack() field
  bool unwinds = false;           // ustack(), jstack(), ucaller or ustackdepth
  bool cpuTime = false;           // vtimestamp
};

bool isStrjoin(const ast::Expr* e) { return scratchOf(e) == ir::SubroutineScratch::Join; }

// `joins`: the strjoin() calls (and cwd or root) `e` is nested in; a
// strjoin() that is another's first operand is joined in that one's area
// (ProgramEmitter::joinInPlace). `subrs`: the scratch subroutines whose
// operands `e` is part of, each evaluated one level of areas deeper
// (ProgramEmitter::operandInto). `keys`: the dynamic variables whose keys
// `e` is part of (ProgramEmitter::dynamicKey).
void scan(const ast::Expr* e, ScratchNeeds& needs, uint32_t joins = 0, bool chained = false,
          uint32_t subrs = 0, uint32_t keys = 0) {
  if (!e) return;
  if (e->kind != ast::ExprKind::Identifier && e->variable && e->variable->isDynamic()) {
    needs.keyLevels = std::max(needs.keyLevels, ++keys);
  }
  const bool workArea = e->kind == ast::ExprKind::Identifier &&
                        (e->text == "cwd" || e->text == "root" || e->text == "execargs");
  if (isStrjoin(e) || workArea) {
    if (!chained) joins++;
    needs.joinLevels = std::max(needs.joinLevels, joins);
  }
  // A char array member defined by a string may be wanted by address: built
  // in a subroutine area, then alloca'd (ProgramEmitter::translatedStringAddress).
  const bool stringMember = e->translatedMember && e->translatedMember->type &&
                            e->translatedMember->type->isString() && e->type &&
                            e->type->isCharArray();
  if (scratchOf(e) == ir::SubroutineScratch::Areas || stringMember) {
    needs.subroutines = true;
    needs.subrLevels = std::max(needs.subrLevels, ++subrs);
    // json() builds its value in the next level's first area.
    if (e->subroutine == ir::Subroutine::Json) {
      needs.subrLevels = std::max(needs.subrLevels, subrs + 1);
    }
  }
  if (workArea) needs.loops = true;
  if (e->kind == ast::ExprKind::Call && e->text == "chill") needs.chill = true;
  if (e->kind == ast::ExprKind::Call &&
      (e->subroutine == ir::Subroutine::Speculation || e->text == "speculate" ||
       e->text == "commit" || e->text == "discard")) {
    needs.speculations = true;
  }
  if (e->kind == ast::ExprKind::Call && e->text == "stack" && e->type) {
    needs.kernelStackBytes = std::max(needs.kernelStackBytes, e->type->size);
  }
  if (e->kind == ast::ExprKind::Call && (e->text == "ustack" || e->text == "jstack") && e->type) {
    needs.userStackBytes = std::max(needs.userStackBytes, e->type->size);
    needs.unwinds = true;
    needs.loops = true;  // the unwinder's
  }
  if (e->kind == ast::ExprKind::Identifier && e->text == "vtimestamp") needs.cpuTime = true;
  if (e->kind == ast::ExprKind::Identifier && (e->text == "ucaller" || e->text == "ustackdepth")) {
    needs.unwinds = true;
    if (e->text == "ucaller") needs.userStackBytes = std::max(needs.userStackBytes, 16u);
    needs.loops = true;
  }
  for (size_t i = 0; i < e->operands.size(); i++) {
    const ast::Expr* o = e->operands[i].get();
    scan(o, needs, joins, i == 0 && isStrjoin(e) && isStrjoin(o), subrs, keys);
  }
  // What the expression stands for runs too: an inline's value, a
  // translator's member, every member of a whole translated struct.
  scan(e->inlineValue, needs, joins, false, subrs, keys);
  scan(e->translatedMember, needs, joins, false, subrs, keys);
  if (e->translation && e->translation->translator) {
    for (const auto& [name, member] : e->translation->translator->members) {
      scan(member, needs, joins, false, subrs, keys);
    }
  }
}

void scan(const std::vector<ast::StmtPtr>& stmts, ScratchNeeds& needs) {
  for (const auto& s : stmts) {
    scan(s->expr.get(), needs);
    scan(s->body, needs);
    scan(s->elseBody, needs);
  }
}

ScratchNeeds scratchNeeds(const std::vector<ast::ProbeClause*>& clauses) {
  ScratchNeeds needs;
  for (const ast::ProbeClause* c : clauses) {
    scan(c->predicate.get(), needs);
    scan(c->body, needs);
  }
  return needs;
}

// Calls `visit` on `e` and on everything evaluated with it: its operands,
// an inline's value, a translator's member, every member of a whole
// translated struct. `isBase` says whether `e` is the array or struct an
// Index or Member selects in, rather than a value of its own.
template <typename Visit>
void walk(const ast::Expr* e, const Visit& visit, bool isBase = false) {
  if (!e) return;
  visit(*e, isBase);
  for (size_t i = 0; i < e->operands.size(); i++) {
    const bool base =
        i == 0 && (e->kind == ast::ExprKind::Index || e->kind == ast::ExprKind::Member);
    walk(e->operands[i].get(), visit, base);
  }
  walk(e->inlineValue, visit);
  walk(e->translatedMember, visit);
  if (e->translation && e->translation->translator) {
    for (const auto& [name, member] : e->translation->translator->members) walk(member, visit);
  }
}

template <typename Visit>
void walk(const std::vector<ast::StmtPtr>& stmts, const Visit& visit) {
  for (const auto& s : stmts) {
    walk(s->expr.get(), visit);
    walk(s->body, visit);
    walk(s->elseBody, visit);
  }
}

template <typename Visit>
void walk(const ast::ProbeClause& clause, const Visit& visit) {
  walk(clause.predicate.get(), visit);
  walk(clause.body, visit);
}

// The variables whose storage a clause takes the address of: an `&` of a
// member or element (&g.m, &self->s.m, &a[k].m), or an array standing for
// its address (ProgramEmitter::value's storageAddress). A store through a
// pointer may land in them, and only in them of all D variables.
std::vector<const sema::Variable*> addressedVariables(
    const std::vector<ast::ProbeClause*>& clauses) {
  std::vector<const sema::Variable*> vars;
  auto note = [&vars](const ast::Expr& e, bool isBase) {
    const ast::Expr* named = nullptr;
    if (e.kind == ast::ExprKind::Unary && e.op == ast::Op::AddressOf) {
      named = e.operands[0].get();
    } else if (!isBase && e.type && e.type->isArray() && e.kind != ast::ExprKind::Assign) {
      named = &e;
    }
    if (!named || named->inMemory || !named->variable) return;
    using Kind = sema::Variable::Kind;
    const Kind kind = named->variable->kind;
    if (kind != Kind::Global && kind != Kind::ClauseLocal && !named->variable->isDynamic()) return;
    if (std::find(vars.begin(), vars.end(), named->variable) == vars.end()) {
      vars.push_back(named->variable);
    }
  };
  for (const ast::ProbeClause* c : clauses) walk(*c, note);
  return vars;
}

// Whether a clause stores through a pointer (*p = v, p->m++): a program
// running it looks for the addressed dynamic variables' maps.
bool writesThroughPointer(const ast::ProbeClause& clause) {
  bool writes = false;
  walk(clause, [&writes](const ast::Expr& e, bool) {
    const bool store =
        e.kind == ast::ExprKind::Assign ||
        (e.kind == ast::ExprKind::Unary && (e.op == ast::Op::PreInc || e.op == ast::Op::PreDec ||
                                            e.op == ast::Op::PostInc || e.op == ast::Op::PostDec));
    if (store && !e.operands.empty() && e.operands[0]->inMemory) writes = true;
  });
  return writes;
}

// Places the aggregations' and dynamic variables' maps so that no program
// uses more maps than the kernel allows (map_sharing.h); a shared map's
// key and value take its array's sizes.
void placeMaps(Layout& layout, const std::vector<ast::ProbeClause*>& clauses,
               const ProgramClauses& programs) {
  std::vector<MapUse> clauseUse;
  MapUse addressed;
  addressed.dynamics = layout.addressedDynamics;
  for (const ast::ProbeClause* c : clauses) {
    clauseUse.push_back(mapsUsed(*c));
    if (writesThroughPointer(*c)) clauseUse.back().add(addressed);
  }
  std::vector<MapUse> programUse;
  if (programs.empty()) {
    programUse.emplace_back();
    for (const MapUse& u : clauseUse) programUse.back().add(u);
  }
  for (const std::vector<size_t>& program : programs) {
    programUse.emplace_back();
    for (size_t clause : program) programUse.back().add(clauseUse.at(clause));
  }
  std::vector<MapShape> aggregations, dynamics;
  for (const ir::Aggregation& a : layout.aggregations) {
    aggregations.push_back({a.keySize, a.valueSize()});
  }
  for (const DynamicLayout& d : layout.dynamics) dynamics.push_back({d.keySize, d.valueSize});
  MapSharing sharing = shareMaps(aggregations, dynamics, programUse);
  for (size_t i = 0; i < layout.aggregations.size(); i++) {
    layout.aggregations[i].keySize = sharing.aggregationShapes[i].keySize;
  }
  for (size_t i = 0; i < layout.dynamics.size(); i++) {
    DynamicLayout& d = layout.dynamics[i];
    d.place = sharing.dynamics[i];
    d.keySize = sharing.dynamicShapes[i].keySize;
    d.valueSize = sharing.dynamicShapes[i].valueSize;
  }
  layout.aggregationPlaces = std::move(sharing.aggregations);
  layout.mapArrays = std::move(sharing.arrays);
}

}  // namespace

bool holdsRegister(const sema::Variable& v) {
  using Kind = sema::Variable::Kind;
  const bool storage = v.kind == Kind::Global || v.kind == Kind::ClauseLocal ||
                       v.kind == Kind::ThreadLocal || v.kind == Kind::Associative;
  return storage && v.type && v.type->isScalar();
}

ir::DataKind dataKindOf(const sema::Type* t) {
  if (t->isCodeAddress()) return t->codeKind;
  if (t->isString() || t->isCharArray()) return ir::DataKind::String;
  if (t->isStruct() || t->isArray()) return ir::DataKind::Bytes;
  if (t->isPointer() || !t->isSigned) return ir::DataKind::Unsigned;
  return ir::DataKind::Signed;
}

namespace {

// Each clause's record: its actions' fields, and the action mask first
// when it needs one. Returns the largest record's data size.
uint32_t placeClauses(Layout& layout, std::vector<ast::ProbeClause*>& clauses, bool quiet,
                      uint32_t stringBufferSize) {
  uint32_t maxRecord = 0;
  TypeInfoBuilder typeInfo;
  for (ast::ProbeClause* clause : clauses) {
    ClauseLayout cl;
    cl.clause = clause;
    ClauseWalker walker{cl, layout, typeInfo, stringBufferSize};
    // The action mask needs the first 8 bytes; find out first.
    ClauseLayout probe;
    TypeInfoBuilder unused;
    ClauseWalker dry{probe, layout, unused, stringBufferSize};
    dry.statements(clause->body);
    if (probe.hasActionMask) walker.end = 8;
    walker.statements(clause->body);
    cl.hasActionMask = probe.hasActionMask;
    cl.dataSize = alignUp(walker.end, 8);
    cl.recordsData = !cl.orderedActions.empty() || (clause->body.empty() && !quiet);
    for (auto& [call, al] : cl.actions) cl.orderedActions[al.index] = al.action;
    maxRecord = std::max(maxRecord, cl.dataSize);
    layout.clauses.push_back(std::move(cl));
  }
  layout.types = typeInfo.take();
  return maxRecord;
}

// Each aggregation's keys, and the globals that count its clear()s.
void placeAggregations(Layout& layout, sema::SymbolTable& symbols, uint32_t stringBufferSize) {
  if (!symbols.aggregations().empty()) {
    layout.aggregationEpochOffset = layout.globalsSize;
    layout.globalsSize += 8;
  }
  for (const sema::Variable& agg : symbols.aggregations()) {
    ir::Aggregation a;
    a.id = agg.aggregationId;
    a.name = agg.name;
    a.func = agg.aggFunc;
    a.params = agg.aggParams;
    a.valueKind = dataKindOf(agg.type);
    a.generationOffset = layout.globalsSize;  // clear() bumps it
    layout.globalsSize += 8;
    uint32_t end = 0, recordEnd = 0;
    for (const sema::Type* kt : agg.keyTypes) {
      a.keys.push_back(fieldFor(end, kt));
      const uint32_t at = place(recordEnd, kt);
      if (kt->isString()) recordEnd = at + stringBufferSize - 1;
    }
    a.keySize = std::max<uint32_t>(8, alignUp(end, 8));
    a.recordKeySize = std::max<uint32_t>(8, alignUp(recordEnd, 8));
    layout.aggregations.push_back(std::move(a));
  }
}

// Which thread-locals live in task-local storage (DynamicLayout::perTask):
// scalars that no pointer reaches (a write through a pointer searches the
// variable's hash map for its element), that are not shared through an
// array of maps (task storage cannot be an inner map), and that no clause
// reaches on behalf of another thread (whose task a program can name, but
// not as the trusted pointer task storage wants).
void placePerTask(Layout& layout, const std::vector<ast::ProbeClause*>& clauses,
                  const sema::SymbolTable& symbols, const std::vector<size_t>& otherTask) {
  std::vector<uint32_t> keyedByIds = layout.addressedDynamics;
  for (size_t i : otherTask) {
    for (uint32_t id : mapsUsed(*clauses.at(i)).dynamics) keyedByIds.push_back(id);
  }
  for (const sema::Variable* v : symbols.dynamics()) {
    DynamicLayout& d = layout.dynamics.at(v->dynamicId);
    d.perTask = v->kind == sema::Variable::Kind::ThreadLocal && !v->isKeyed() &&
                v->type->isScalar() && !d.place.shared() &&
                std::find(keyedByIds.begin(), keyedByIds.end(), v->dynamicId) == keyedByIds.end();
  }
  for (ClauseLayout& c : layout.clauses) {
    if (!c.clause) continue;
    for (uint32_t id : mapsUsed(*c.clause).dynamics) c.usesPerTask |= layout.dynamics[id].perTask;
  }
}

// Each dynamic variable's key and value. Returns the largest value the
// staging area holds.
uint32_t placeDynamics(Layout& layout, sema::SymbolTable& symbols) {
  // The staging area also holds a struct or array bound for a global.
  uint32_t maxDynamicValue = 8;
  for (const sema::Variable& v : symbols.globals()) {
    if (!v.isDynamic() && (v.type->isStruct() || v.type->isArray())) {
      maxDynamicValue = std::max(maxDynamicValue, alignUp(v.type->size, 8));
    }
  }
  for (const sema::Variable* v : symbols.dynamics()) {
    DynamicLayout d;
    uint32_t end = v->kind == sema::Variable::Kind::ThreadLocal ? 8 : 0;  // the thread first
    for (const sema::Type* kt : v->keyTypes) d.keys.push_back(fieldFor(end, kt));
    d.keySize = std::max<uint32_t>(8, alignUp(end, 8));
    d.valueSize = alignUp(v->type->size, 8);
    d.ownValueSize = d.valueSize;
    layout.dynamics.push_back(std::move(d));
  }
  return maxDynamicValue;
}

// The scratch value's fixed areas: the record, keys, clause locals, the
// fault record, dynamic-variable keys and values, string temporaries.
void placeScratch(Layout& layout, const ScratchNeeds& needs, uint32_t maxRecord, uint32_t maxKey,
                  uint32_t localsSize, uint32_t maxDynamicValue, uint32_t stringBufferSize) {
  layout.recordOffset = 0;
  layout.keyOffset = alignUp(sizeof(ir::RecordHeader) + maxRecord + ir::kRecordTimestampSize, 8);
  layout.localsOffset = layout.keyOffset + maxKey;
  layout.faultOffset = alignUp(layout.localsOffset + localsSize, 8);
  layout.dynamicKeyOffset = alignUp(layout.faultOffset + sizeof(ir::RecordHeader) +
                                        sizeof(ir::FaultRecord) + ir::kRecordTimestampSize,
                                    8);
  layout.dynamicKeyLevels = std::max(kMinDynamicKeyLevels, needs.keyLevels);
  layout.dynamicValueOffset =
      layout.dynamicKeyOffset + layout.dynamicKeyLevels * layout.dynamicKeySize;
  layout.stringTempOffset = layout.dynamicValueOffset + maxDynamicValue;
  layout.stringTempSize = alignUp(stringBufferSize, 8);
  layout.joinOffset = layout.stringTempOffset + 2 * layout.stringTempSize;
  layout.joinLevels = needs.joinLevels;  // only as deep as the program nests them
  layout.scratchSize = layout.joinOffset + layout.joinLevels * 3 * layout.stringTempSize;
}

// The areas only some programs need, after the fixed ones.
void placeOptionalScratch(Layout& layout, const ScratchNeeds& needs, uint32_t allocaSize) {
  // The subroutines' areas cost scratch space (a per-CPU value is at most
  // 32 KiB): only programs that need them get them (allocaSize 0 otherwise).
  layout.selfAddressOffset = layout.scratchSize;
  layout.scratchSize += 8;
  if (needs.chill) {
    layout.chillOffset = layout.scratchSize;
    layout.scratchSize += 16;
  }
  if (needs.kernelStackBytes) {
    layout.kernelStackOffset = layout.scratchSize;
    layout.kernelStackSize = needs.kernelStackBytes + kMachineryScanFrames * 8;
    layout.scratchSize += layout.kernelStackSize;
  }
  layout.unwindsUserStacks = needs.unwinds;
  layout.threadCpuTime = needs.cpuTime;
  if (needs.userStackBytes) {
    layout.userStackOffset = layout.scratchSize;
    layout.userStackSize = alignUp(needs.userStackBytes, 8);
    layout.scratchSize += layout.userStackSize;
  }
  if (!layout.addressedDynamics.empty()) {
    layout.storeStateOffset = layout.scratchSize;
    layout.scratchSize += kStoreStateWords * 8;
  }
  if (needs.loops || needs.subroutines || needs.chill) {
    layout.loopStateOffset = layout.scratchSize;
    layout.scratchSize += kLoopStateWords * 8;
  }
  if (needs.subroutines) {
    layout.subrOffset = layout.scratchSize;
    layout.subrAreaSize = std::max<uint32_t>(layout.stringTempSize, 64);  // an IPv6 address fits
    layout.subrLevels = needs.subrLevels;
    layout.strtokOffset = layout.subrOffset + layout.subrLevels * 2 * layout.subrAreaSize;
    layout.allocaUsedOffset = layout.strtokOffset + 8 + layout.stringTempSize;  // flag, string
    layout.allocaOffset = layout.allocaUsedOffset + 8;
    layout.allocaSize = allocaSize;
    // Twice the usable size: the verifier bounds an access by the largest
    // offset plus the largest length, each of which may reach allocaSize.
    layout.scratchSize = layout.allocaOffset + 2 * layout.allocaSize;
  }
}

}  // namespace

Layout computeLayout(std::vector<ast::ProbeClause*>& clauses, sema::SymbolTable& symbols,
                     bool quiet, uint32_t stringBufferSize, SpeculationLimits speculations,
                     uint32_t allocaSize, const ProgramClauses& programs,
                     const std::vector<size_t>& otherTask) {
  Layout layout;

  for (sema::Variable& v : symbols.globals()) {
    if (v.isDynamic()) continue;  // lives in its own map
    v.offset = placeVariable(layout.globalsSize, v);
  }
  layout.globalsSize = alignUp(std::max<uint32_t>(layout.globalsSize, 8), 8);

  const uint32_t maxRecord = placeClauses(layout, clauses, quiet, stringBufferSize);

  const ScratchNeeds needs = scratchNeeds(clauses);
  if (needs.speculations) {
    layout.speculationOffset = layout.globalsSize;
    layout.speculations = speculations.count;
    layout.speculationBytes = speculations.bytesPerCpu;
    layout.globalsSize += 8 * speculations.count;
  }

  placeAggregations(layout, symbols, stringBufferSize);
  uint32_t maxDynamicValue = placeDynamics(layout, symbols);
  const std::vector<const sema::Variable*> addressed = addressedVariables(clauses);
  for (const sema::Variable* v : addressed) {
    if (v->isDynamic()) layout.addressedDynamics.push_back(v->dynamicId);
  }
  std::sort(layout.addressedDynamics.begin(), layout.addressedDynamics.end());
  placeMaps(layout, clauses, programs);
  placePerTask(layout, clauses, symbols, otherTask);
  uint32_t maxKey = 8;
  for (const ir::Aggregation& a : layout.aggregations) {
    maxKey = std::max(maxKey, a.keySize + ir::kAggregationCpuSlot);
  }
  for (const DynamicLayout& d : layout.dynamics) {
    layout.dynamicKeySize = std::max(layout.dynamicKeySize, d.keySize);
    maxDynamicValue = std::max(maxDynamicValue, d.valueSize);
  }

  uint32_t localsSize = 0;
  for (sema::Variable& v : symbols.clauseLocals()) {
    v.offset = placeVariable(localsSize, v);
  }

  placeScratch(layout, needs, maxRecord, maxKey, localsSize, maxDynamicValue, stringBufferSize);
  placeOptionalScratch(layout, needs, allocaSize);
  // Relocate the locals into the scratch value.
  for (sema::Variable& v : symbols.clauseLocals()) {
    v.offset += layout.localsOffset;
  }
  for (const sema::Variable* v : addressed) {
    if (v->isDynamic()) continue;
    layout.addressedStatics.push_back(
        {v->kind == sema::Variable::Kind::Global, v->offset, v->type->size});
  }
  return layout;
}

}  // namespace dtrace::codegen
