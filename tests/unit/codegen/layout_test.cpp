// Storage layout of an enabling: globals, the record each clause writes,
// aggregation keys and the per-CPU scratch value.
#include "codegen/layout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "parse/parser.h"
#include "sema/checker.h"

namespace dtrace::codegen {
namespace {

class LayoutTest : public ::testing::Test {
 protected:
  // Parses, checks and lays out src; fails the test on a compile error.
  const Layout& lay(std::string_view src, bool quiet = false) {
    parse::ParseOptions po;
    po.isTypeName = [this](std::string_view n, bool) { return types.isTypeName(n); };
    parse::ParseResult parsed = parse::parseProgram(src, po);
    EXPECT_TRUE(parsed.diags.empty()) << formatDiagnostic(
        parsed.diags.all().empty() ? Diagnostic{} : parsed.diags.first(), true, true);
    program = std::make_unique<ast::Program>(std::move(parsed.program));
    Diagnostics diags;
    sema::Checker checker(types, symbols, macros, diags);
    EXPECT_TRUE(checker.check(*program));
    EXPECT_TRUE(diags.empty()) << formatDiagnostic(diags.empty() ? Diagnostic{} : diags.first(),
                                                   true, true);
    for (auto& item : program->items) {
      if (auto* c = std::get_if<ast::ProbeClause>(&item)) clauses.push_back(c);
    }
    layout = computeLayout(clauses, symbols, quiet, types.stringBufferSize());
    return layout;
  }
  uint32_t globalOffset(const char* name) {
    const sema::Variable* v = symbols.findGlobal(name);
    EXPECT_NE(v, nullptr) << name;
    return v ? v->offset : 0;
  }
  const std::vector<ir::Field>& fieldsOf(size_t clause, size_t action) {
    return layout.clauses.at(clause).orderedActions.at(action).fields;
  }

  sema::TypeTable types;
  sema::SymbolTable symbols;
  sema::MacroTable macros;
  std::unique_ptr<ast::Program> program;
  std::vector<ast::ProbeClause*> clauses;
  Layout layout;
};

TEST_F(LayoutTest, GlobalsStartAfterTheFixedSlots) {
  lay("BEGIN { x = 1; }");
  EXPECT_EQ(globalOffset("x"), kFirstGlobalOffset);
  EXPECT_EQ(layout.globalsSize, kFirstGlobalOffset + 8);
}

TEST_F(LayoutTest, EmptyEnablingStillHasTheFixedSlots) {
  lay("BEGIN { }");
  EXPECT_EQ(layout.globalsSize, kFirstGlobalOffset);
}

// A scalar variable holds a whole register, whatever its type's width.
TEST_F(LayoutTest, ScalarGlobalsTakeAWordEach) {
  lay("char c; int i; char d; short s; long l; char e; BEGIN { c = 1; }");
  EXPECT_EQ(globalOffset("c"), kFirstGlobalOffset);
  EXPECT_EQ(globalOffset("i"), kFirstGlobalOffset + 8);
  EXPECT_EQ(globalOffset("d"), kFirstGlobalOffset + 16);
  EXPECT_EQ(globalOffset("s"), kFirstGlobalOffset + 24);
  EXPECT_EQ(globalOffset("l"), kFirstGlobalOffset + 32);
  EXPECT_EQ(globalOffset("e"), kFirstGlobalOffset + 40);
  EXPECT_EQ(layout.globalsSize, kFirstGlobalOffset + 48);
}

// Arrays and structs are laid out as C lays them out.
TEST_F(LayoutTest, ArrayGlobalsAreAlignedAsTheirElements) {
  lay("char c; short a[5]; BEGIN { c = 1; }");
  EXPECT_EQ(globalOffset("c"), kFirstGlobalOffset);
  EXPECT_EQ(globalOffset("a"), kFirstGlobalOffset + 8);
}

// A string global holds strsize characters and a NUL (257 bytes), aligned to 8.
// Each string variable has 8 bytes of NULL marker before its characters.
TEST_F(LayoutTest, StringGlobalsTakeStrsizeAndNulAlignedTo8) {
  lay("char c; BEGIN { c = 1; s = execname; t = \"ab\"; }");
  EXPECT_EQ(globalOffset("c"), kFirstGlobalOffset);
  EXPECT_EQ(globalOffset("s"), kFirstGlobalOffset + 8 + 8);
  EXPECT_EQ(globalOffset("t"), kFirstGlobalOffset + 8 + 264u + 8 + 8);
  EXPECT_EQ(layout.globalsSize, kFirstGlobalOffset + 8 + 2 * (8 + 264u));
}

TEST_F(LayoutTest, StrsizeSetsStringSizes) {
  types = sema::TypeTable(64);
  lay("BEGIN { s = \"abc\"; trace(s); }");
  EXPECT_EQ(globalOffset("s"), kFirstGlobalOffset + 8);
  EXPECT_EQ(layout.globalsSize, kFirstGlobalOffset + 8 + 72u);
  EXPECT_EQ(fieldsOf(0, 0).at(0).size, 65u);  // 64 characters and the NUL
  EXPECT_EQ(layout.stringTempSize, 72u);
}

TEST_F(LayoutTest, TraceFieldsPerType) {
  lay("BEGIN { trace(1); trace((char)1); trace(execname); trace(1ul); trace(\"ab\"); }");
  const ClauseLayout& cl = layout.clauses.at(0);
  ASSERT_EQ(cl.orderedActions.size(), 5u);
  for (const auto& a : cl.orderedActions) EXPECT_EQ(a.kind, ir::ActionKind::Trace);

  const ir::Field& i = fieldsOf(0, 0).at(0);
  EXPECT_EQ(i.offset, 0u);
  EXPECT_EQ(i.size, 4u);
  EXPECT_EQ(i.kind, ir::DataKind::Signed);

  const ir::Field& c = fieldsOf(0, 1).at(0);
  EXPECT_EQ(c.offset, 4u);
  EXPECT_EQ(c.size, 1u);

  const ir::Field& s = fieldsOf(0, 2).at(0);
  EXPECT_EQ(s.offset, 8u);
  EXPECT_EQ(s.size, 16u);  // execname is at most TASK_COMM_LEN bytes
  EXPECT_EQ(s.kind, ir::DataKind::String);

  const ir::Field& u = fieldsOf(0, 3).at(0);
  EXPECT_EQ(u.offset, 24u);
  EXPECT_EQ(u.size, 8u);
  EXPECT_EQ(u.kind, ir::DataKind::Unsigned);

  const ir::Field& lit = fieldsOf(0, 4).at(0);
  EXPECT_EQ(lit.offset, 32u);
  EXPECT_EQ(lit.size, types.strsize());  // a string constant takes strsize bytes, as in DTrace
  EXPECT_EQ(lit.kind, ir::DataKind::String);

  EXPECT_EQ(cl.dataSize, 32u + (types.strsize() + 7) / 8 * 8);
  EXPECT_TRUE(cl.recordsData);
  EXPECT_FALSE(cl.hasActionMask);
}

TEST_F(LayoutTest, PrintfFieldsAreItsValueArguments) {
  lay("BEGIN { printf(\"%d %s %c\\n\", 42l, \"hi\", 'x'); }");
  const ir::Action& a = layout.clauses.at(0).orderedActions.at(0);
  EXPECT_EQ(a.kind, ir::ActionKind::Printf);
  ASSERT_EQ(a.fields.size(), 3u);
  EXPECT_EQ(a.fields[0].offset, 0u);
  EXPECT_EQ(a.fields[0].size, 8u);
  EXPECT_EQ(a.fields[1].offset, 8u);
  EXPECT_EQ(a.fields[1].size, types.strsize());
  EXPECT_EQ(a.fields[2].offset, 8u + types.strsize());
  EXPECT_EQ(a.fields[2].size, 4u);
  ASSERT_EQ(layout.formats.size(), 1u);
  EXPECT_EQ(layout.formats[0], "%d %s %c\n");
  EXPECT_EQ(a.formatIndex, 0u);
  EXPECT_EQ(layout.clauses.at(0).dataSize, 8u + types.strsize() + 8u);
}

TEST_F(LayoutTest, IdenticalFormatsAreSharedAcrossClauses) {
  lay("BEGIN { printf(\"a %d\", 1); printf(\"b\"); } END { printf(\"a %d\", 2); }");
  ASSERT_EQ(layout.formats.size(), 2u);
  EXPECT_EQ(layout.clauses.at(0).orderedActions.at(0).formatIndex, 0u);
  EXPECT_EQ(layout.clauses.at(0).orderedActions.at(1).formatIndex, 1u);
  EXPECT_EQ(layout.clauses.at(1).orderedActions.at(0).formatIndex, 0u);
}

TEST_F(LayoutTest, ExitRecordsItsStatus) {
  lay("BEGIN { exit(3); }");
  const ir::Action& a = layout.clauses.at(0).orderedActions.at(0);
  EXPECT_EQ(a.kind, ir::ActionKind::Exit);
  ASSERT_EQ(a.fields.size(), 1u);
  EXPECT_EQ(a.fields[0].size, 4u);
}

TEST_F(LayoutTest, ActionsUnderIfGetAnActionMask) {
  lay("BEGIN { x = 1; if (x) { trace(1); } else { trace(2l); } trace(3); }");
  const ClauseLayout& cl = layout.clauses.at(0);
  EXPECT_TRUE(cl.hasActionMask);
  ASSERT_EQ(cl.orderedActions.size(), 3u);
  EXPECT_EQ(fieldsOf(0, 0).at(0).offset, 8u);  // after the 8-byte mask
  EXPECT_EQ(fieldsOf(0, 1).at(0).offset, 16u);
  EXPECT_EQ(fieldsOf(0, 2).at(0).offset, 24u);
  EXPECT_EQ(cl.dataSize, 32u);
}

TEST_F(LayoutTest, ActionIndexIsThePositionInTheClause) {
  lay("BEGIN { trace(1); x = 2; if (x) { trace(3); } }");
  const ClauseLayout& cl = layout.clauses.at(0);
  std::vector<int> indexes;
  for (const auto& [call, al] : cl.actions) indexes.push_back(al.index);
  std::sort(indexes.begin(), indexes.end());
  EXPECT_EQ(indexes, (std::vector<int>{0, 1}));
}

TEST_F(LayoutTest, ClausesWithoutActionsRecordNothing) {
  lay("BEGIN { x = 1; @a = count(); }");
  EXPECT_FALSE(layout.clauses.at(0).recordsData);
  EXPECT_EQ(layout.clauses.at(0).dataSize, 0u);
}

TEST_F(LayoutTest, EmptyClauseRecordsUnlessQuiet) {
  lay("BEGIN { }");
  EXPECT_TRUE(layout.clauses.at(0).recordsData);
  EXPECT_EQ(layout.clauses.at(0).dataSize, 0u);
}

TEST_F(LayoutTest, EmptyClauseInQuietModeRecordsNothing) {
  lay("BEGIN { }", /*quiet=*/true);
  EXPECT_FALSE(layout.clauses.at(0).recordsData);
}

TEST_F(LayoutTest, EachClauseHasItsOwnRecord) {
  lay("BEGIN { trace(1l); } END { trace((char)1); trace(2); }");
  ASSERT_EQ(layout.clauses.size(), 2u);
  EXPECT_EQ(layout.clauses[0].dataSize, 8u);
  EXPECT_EQ(layout.clauses[1].dataSize, 8u);
  EXPECT_EQ(fieldsOf(1, 1).at(0).offset, 4u);
  EXPECT_EQ(layout.clauses[1].clause, clauses[1]);
}

TEST_F(LayoutTest, AggregationWithoutKeysHasOneZeroWord) {
  lay("BEGIN { @ = count(); @s = sum(arg0); @m = min(1u); }");
  ASSERT_EQ(layout.aggregations.size(), 3u);
  EXPECT_EQ(layout.aggregations[0].name, "");
  EXPECT_EQ(layout.aggregations[0].keySize, 8u);
  EXPECT_TRUE(layout.aggregations[0].keys.empty());
  EXPECT_EQ(layout.aggregations[1].func, ir::AggFunc::Sum);
  EXPECT_EQ(layout.aggregations[1].valueKind, ir::DataKind::Signed);
  EXPECT_EQ(layout.aggregations[2].func, ir::AggFunc::Min);
  EXPECT_EQ(layout.aggregations[2].valueKind, ir::DataKind::Unsigned);
  for (size_t i = 0; i < 3; i++) EXPECT_EQ(layout.aggregations[i].id, i);
}

TEST_F(LayoutTest, AggregationKeysMixIntegersAndStrings) {
  lay("BEGIN { @a[execname, pid, (char)1, timestamp, \"xyz\"] = count(); }");
  const ir::Aggregation& a = layout.aggregations.at(0);
  EXPECT_EQ(a.name, "a");
  ASSERT_EQ(a.keys.size(), 5u);
  EXPECT_EQ(a.keys[0].offset, 0u);
  EXPECT_EQ(a.keys[0].size, 16u);
  EXPECT_EQ(a.keys[0].kind, ir::DataKind::String);
  EXPECT_EQ(a.keys[1].offset, 16u);
  EXPECT_EQ(a.keys[1].size, 4u);
  EXPECT_EQ(a.keys[1].kind, ir::DataKind::Signed);
  EXPECT_EQ(a.keys[2].offset, 20u);
  EXPECT_EQ(a.keys[2].size, 1u);
  EXPECT_EQ(a.keys[3].offset, 24u);
  EXPECT_EQ(a.keys[3].size, 8u);
  EXPECT_EQ(a.keys[3].kind, ir::DataKind::Unsigned);
  EXPECT_EQ(a.keys[4].offset, 32u);
  EXPECT_EQ(a.keys[4].size, 4u);
  EXPECT_EQ(a.keySize, 40u);
  // In DTrace's record (aggsize's unit) each string key takes strsize.
  EXPECT_EQ(a.recordKeySize, 256u + 4 + 1 + 3 + 8 + 256);
}

TEST_F(LayoutTest, ScratchHoldsRecordKeyLocalsFaultAndStringTemps) {
  lay("BEGIN { trace(1l); trace(2l); @a[execname, 1] = count(); this->x = 1; this->y = 2l; }");
  EXPECT_EQ(layout.recordOffset, 0u);
  // header (8) + largest record (16) + room for its time (-x temporal)
  EXPECT_EQ(layout.keyOffset, 24u + ir::kRecordTimestampSize);
  // largest key: string16 + int -> 24
  EXPECT_EQ(layout.localsOffset, 32u + 24u + ir::kAggregationCpuSlot);
  const sema::Variable* x = symbols.findClauseLocal("x");
  const sema::Variable* y = symbols.findClauseLocal("y");
  ASSERT_NE(x, nullptr);
  ASSERT_NE(y, nullptr);
  EXPECT_EQ(x->offset, layout.localsOffset);
  EXPECT_EQ(y->offset, layout.localsOffset + 8);
  EXPECT_EQ(layout.faultOffset, layout.localsOffset + 16);
  EXPECT_GE(layout.stringTempOffset, layout.faultOffset + sizeof(ir::RecordHeader) +
                                         sizeof(ir::FaultRecord) + ir::kRecordTimestampSize);
  EXPECT_EQ(layout.stringTempOffset % 8, 0u);
  EXPECT_EQ(layout.stringTempSize, 264u);  // 256 characters and the NUL, in whole words
  EXPECT_EQ(layout.joinOffset, layout.stringTempOffset + 2 * layout.stringTempSize);
  EXPECT_EQ(layout.joinLevels, 0u);  // no strjoin(): no area for one
  EXPECT_EQ(layout.selfAddressOffset, layout.joinOffset);
  EXPECT_EQ(layout.scratchSize,
            layout.selfAddressOffset + 8);  // a word to turn pointers into numbers
}

TEST_F(LayoutTest, StrjoinGetsAnAreaPerNestingLevel) {
  lay("BEGIN { trace(strjoin(\"a\", strjoin(\"b\", strjoin(\"c\", strjoin(\"d\", \"e\"))))); }"
      "END { trace(strjoin(\"x\", cwd)); }");
  EXPECT_EQ(layout.joinLevels, 4u);
  EXPECT_EQ(layout.selfAddressOffset, layout.joinOffset + 4 * 3 * layout.stringTempSize);
}

// Stores through pointers may go into the D variables whose storage a
// clause takes the address of, each within its own bytes.
TEST_F(LayoutTest, AddressedVariablesAreWhereStoresThroughPointersMayGo) {
  lay("struct s { int a; int b; }; struct s g; struct s unused; int a[4]; "
      "this struct s t; self struct s v; struct s k[int]; self struct s w; "
      "BEGIN { p = &g.b; q = a + 1; this->t.a = 1; r = &this->t.b; s = &self->v.a; "
      "u = &k[1].b; self->w.a = 1; *p = 1; }");
  ASSERT_EQ(layout.addressedStatics.size(), 3u);
  EXPECT_TRUE(layout.addressedStatics[0].global);
  EXPECT_EQ(layout.addressedStatics[0].offset, globalOffset("g"));
  EXPECT_EQ(layout.addressedStatics[0].size, 8u);
  EXPECT_EQ(layout.addressedStatics[1].offset, globalOffset("a"));
  EXPECT_EQ(layout.addressedStatics[1].size, 16u);
  EXPECT_FALSE(layout.addressedStatics[2].global);
  EXPECT_EQ(layout.addressedStatics[2].offset, symbols.findClauseLocal("t")->offset);
  // self->v and k[], not self->w, whose address is never taken.
  EXPECT_EQ(layout.addressedDynamics.size(), 2u);
  EXPECT_NE(layout.storeStateOffset, 0u);
  EXPECT_LE(layout.storeStateOffset + kStoreStateWords * 8, layout.scratchSize);
}

TEST_F(LayoutTest, NoAddressTakenNoStoreState) {
  lay("struct s { int a; }; self struct s v; BEGIN { self->v.a = 1; }");
  EXPECT_TRUE(layout.addressedStatics.empty());
  EXPECT_TRUE(layout.addressedDynamics.empty());
  EXPECT_EQ(layout.storeStateOffset, 0u);
}

TEST_F(LayoutTest, SubroutineAreasPerNestingLevel) {
  // Each scratch subroutine's operands are evaluated a level deeper, also
  // through other calls (strjoin) and integer operands (index's start).
  lay("BEGIN { trace(strstr(strstr(strstr(strstr(\"abcdef\", \"b\"), \"c\"), \"d\"), \"e\")); }"
      "END { trace(index(\"ab\", strjoin(\"a\", basename(\"/b\")), strlen(dirname(\"c\")))); }");
  EXPECT_EQ(layout.subrLevels, 4u);
  EXPECT_EQ(layout.strtokOffset, layout.subrOffset + 4 * 2 * layout.subrAreaSize);
}

TEST_F(LayoutTest, OneSubroutineOneLevel) {
  lay("BEGIN { trace(index(\"abc\", \"b\")); trace(basename(\"/a\")); }");
  EXPECT_EQ(layout.subrLevels, 1u);
}

TEST_F(LayoutTest, NoSubroutineNoLevels) {
  lay("BEGIN { trace(strjoin(\"a\", \"b\")); }");
  EXPECT_EQ(layout.subrLevels, 0u);
  EXPECT_EQ(layout.allocaSize, 0u);
}

TEST_F(LayoutTest, RegionsDoNotOverlapWithTheLargestRecord) {
  lay("BEGIN { trace(execname); } END { trace(1); printf(\"%s %s\", probename, probefunc); }");
  uint32_t largest = 0;
  for (const auto& cl : layout.clauses) largest = std::max(largest, cl.dataSize);
  EXPECT_GE(layout.keyOffset, sizeof(ir::RecordHeader) + largest);
  EXPECT_GE(layout.localsOffset, layout.keyOffset + 8);
  EXPECT_EQ(layout.keyOffset % 8, 0u);
  EXPECT_EQ(layout.localsOffset % 8, 0u);
}

TEST_F(LayoutTest, DataKinds) {
  EXPECT_EQ(dataKindOf(types.intType()), ir::DataKind::Signed);
  EXPECT_EQ(dataKindOf(types.uintType()), ir::DataKind::Unsigned);
  EXPECT_EQ(dataKindOf(types.stringType()), ir::DataKind::String);
  EXPECT_EQ(dataKindOf(types.pointerTo(types.charType())), ir::DataKind::Unsigned);
  EXPECT_EQ(dataKindOf(types.arrayOf(types.charType(), 4)), ir::DataKind::String);
  EXPECT_EQ(dataKindOf(types.arrayOf(types.intType(), 4)), ir::DataKind::Bytes);
}

TEST_F(LayoutTest, PrintOfAPointerRecordsTheAddressAndTheObject) {
  lay("struct s { int a; uint64_t b; char c[2]; }; "
      "BEGIN { p = (struct s *)alloca(sizeof (struct s)); print(p); print(p->a); }");
  const std::vector<ir::Field>& pointer = fieldsOf(0, 0);
  ASSERT_EQ(pointer.size(), 2u);
  EXPECT_EQ(pointer[0].size, 8u);
  EXPECT_EQ(pointer[1].offset, 8u);
  EXPECT_EQ(pointer[1].size, 18u);  // no padding after the last member
  EXPECT_EQ(pointer[1].kind, ir::DataKind::Bytes);
  const ir::TypeInfo& st = layout.types.at(layout.clauses[0].orderedActions[0].typeIndex);
  EXPECT_EQ(st.kind, ir::TypeKind::Struct);
  EXPECT_EQ(st.name, "struct s");
  ASSERT_EQ(st.members.size(), 3u);
  EXPECT_EQ(st.members[1].bitOffset, 64u);
  EXPECT_EQ(layout.types.at(st.members[1].type).name, "uint64_t");  // as declared
  const ir::TypeInfo& c = layout.types.at(st.members[2].type);
  EXPECT_EQ(c.name, "char [2]");
  EXPECT_TRUE(layout.types.at(c.element).isChar);

  const std::vector<ir::Field>& value = fieldsOf(0, 1);
  ASSERT_EQ(value.size(), 1u);
  EXPECT_EQ(value[0].size, 4u);
  EXPECT_EQ(layout.types.at(layout.clauses[0].orderedActions[1].typeIndex).name, "int");
}

// Stacks and symbols take record fields of their kinds, sized by their
// frames (user ones after the process id); stack() also gets scratch to
// unwind into, machinery frames included.
TEST_F(LayoutTest, StacksAndSymbolsTakeFieldsOfTheirKinds) {
  lay("BEGIN { stack(4); ustack(3); sym(arg0); umod(arg0); uaddr(arg0); }"
      "BEGIN { @u[ustack()] = count(); @k[func(arg0), stack()] = count(); }");
  const auto& c = layout.clauses.at(0).orderedActions;
  ASSERT_EQ(c.size(), 5u);
  EXPECT_EQ(c[0].kind, ir::ActionKind::Stack);
  EXPECT_EQ(c[0].fields.at(0).kind, ir::DataKind::KernelStack);
  EXPECT_EQ(c[0].fields[0].size, 4u * 8);
  EXPECT_EQ(c[1].fields.at(0).kind, ir::DataKind::UserStack);
  EXPECT_EQ(c[1].fields[0].size, 8u + 3 * 8);
  EXPECT_EQ(c[2].kind, ir::ActionKind::Symbol);
  EXPECT_EQ(c[2].fields.at(0).kind, ir::DataKind::KernelSymbol);
  EXPECT_EQ(c[2].fields[0].size, 8u);
  EXPECT_EQ(c[3].fields.at(0).kind, ir::DataKind::UserModule);
  EXPECT_EQ(c[3].fields[0].size, 16u);
  EXPECT_EQ(c[4].fields.at(0).kind, ir::DataKind::UserAddress);
  ASSERT_EQ(layout.aggregations.size(), 2u);
  EXPECT_EQ(layout.aggregations[0].keys.at(0).kind, ir::DataKind::UserStack);
  EXPECT_EQ(layout.aggregations[0].keys[0].size, 8u + 100 * 8);  // ustackframes
  const auto& keys = layout.aggregations[1].keys;
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].kind, ir::DataKind::KernelSymbol);
  EXPECT_EQ(keys[1].kind, ir::DataKind::KernelStack);
  EXPECT_EQ(keys[1].size, 20u * 8);  // stackframes
  EXPECT_EQ(keys[1].offset, 8u);
  EXPECT_GE(layout.kernelStackSize, 20u * 8 + kMachineryScanFrames * 8);
}

TEST_F(LayoutTest, AClauseUsesWhatItAggregatesAndItsDynamicVariables) {
  lay("BEGIN { @b = sum(1); z[2] = 1; }\n"
      "END /z[2]/ { @a = count(); self->y = 1; x[1] = self->y; printa(@b); }");
  const MapUse first = mapsUsed(*clauses.at(0));
  EXPECT_EQ(first.aggregations, std::vector<uint32_t>{symbols.findAggregation("b")->aggregationId});
  EXPECT_EQ(first.dynamics, std::vector<uint32_t>{symbols.findGlobal("z")->dynamicId});
  // z, self->y and x; printa() reads @b in the consumer.
  const MapUse second = mapsUsed(*clauses.at(1));
  EXPECT_EQ(second.aggregations,
            std::vector<uint32_t>{symbols.findAggregation("a")->aggregationId});
  EXPECT_EQ(second.dynamics.size(), 3u);
}

// n aggregations, n associative arrays and n thread-locals in one clause.
std::string manyVariables(int n, const std::string& probe = "BEGIN") {
  std::string body;
  for (int i = 0; i < n; i++) {
    const std::string k = probe + std::to_string(i);
    body += "@a" + k + "[\"k\"] = sum(" + std::to_string(i) + "); x" + k + "[" + std::to_string(i) +
            "] = 1; self->t" + k + " = 1; ";
  }
  return std::string(probe) + " { " + body + "}\n";
}

TEST_F(LayoutTest, AClauseUsingMoreMapsThanAProgramMayShares) {
  lay(manyVariables(100));
  ASSERT_EQ(layout.aggregations.size(), 100u);
  ASSERT_EQ(layout.dynamics.size(), 200u);
  // One array of each shape: the aggregations', the arrays' (an int key),
  // the thread-locals' (the thread).
  EXPECT_EQ(layout.mapArrays.size(), 2u);
  for (const ir::Aggregation& a : layout.aggregations) {
    const MapPlace& p = layout.aggregationPlaces.at(a.id);
    ASSERT_TRUE(p.shared());
    EXPECT_EQ(layout.mapArrays.at(p.array).members.at(p.slot), a.id);
    EXPECT_EQ(layout.mapArrays[p.array].shape.keySize, a.keySize);
  }
  for (const DynamicLayout& d : layout.dynamics) {
    ASSERT_TRUE(d.place.shared());
    EXPECT_EQ(layout.mapArrays.at(d.place.array).shape, (MapShape{d.keySize, d.valueSize}));
    EXPECT_LE(d.keySize, layout.dynamicKeySize);
  }
}

TEST_F(LayoutTest, ClausesOfDifferentProgramsKeepTheirOwnMaps) {
  lay(manyVariables(15, "BEGIN") + manyVariables(15, "END"));
  EXPECT_FALSE(layout.mapArrays.empty());  // 60 maps if one program ran both
  SpeculationLimits speculations;
  layout = computeLayout(clauses, symbols, false, types.stringBufferSize(), speculations,
                         kAllocaSize, {{0}, {1}});
  EXPECT_TRUE(layout.mapArrays.empty());
  for (const MapPlace& p : layout.aggregationPlaces) EXPECT_FALSE(p.shared());
  for (const DynamicLayout& d : layout.dynamics) EXPECT_FALSE(d.place.shared());
}

TEST_F(LayoutTest, SharedMapsPadValuesToTheirArraysShape) {
  // 60 arrays each with a value of its own size: too many shapes for the
  // arrays a program may use, so sizes are rounded up to classes, and the
  // staging area in scratch holds the largest.
  std::string declarations, body;
  for (int i = 1; i <= 60; i++) {
    const std::string name = "s" + std::to_string(i);
    declarations += "int " + name + "[int][" + std::to_string(2 * i) + "];\n";
    body += name + "[1][0] = 1; ";
  }
  lay(declarations + "BEGIN { " + body + "}");
  ASSERT_EQ(layout.dynamics.size(), 60u);
  EXPECT_LT(layout.mapArrays.size(), 60u);
  for (size_t i = 0; i < layout.dynamics.size(); i++) {
    const DynamicLayout& d = layout.dynamics[i];
    ASSERT_TRUE(d.place.shared());
    EXPECT_EQ(layout.mapArrays.at(d.place.array).shape, (MapShape{d.keySize, d.valueSize}));
    EXPECT_GE(d.valueSize, d.ownValueSize);
    EXPECT_LE(d.valueSize, layout.stringTempOffset - layout.dynamicValueOffset);
  }
}

TEST_F(LayoutTest, ScalarThreadLocalsLiveInTaskStorage) {
  lay("self int *p; BEGIN { self->n = 1; self->p = 0; self->s = \"x\"; self->a[1] = 2;"
      "}");
  auto perTask = [&](const char* name) {
    for (const sema::Variable* v : symbols.dynamics()) {
      if (v->name == name) return layout.dynamics.at(v->dynamicId).perTask;
    }
    ADD_FAILURE() << name;
    return false;
  };
  EXPECT_TRUE(perTask("n"));   // an integer
  EXPECT_TRUE(perTask("p"));   // a pointer
  EXPECT_FALSE(perTask("s"));  // a string: its NULL differs from ""
  EXPECT_FALSE(perTask("a"));  // keyed by a tuple too
  EXPECT_TRUE(layout.clauses.at(0).usesPerTask);
}

TEST_F(LayoutTest, ThreadLocalsOfAnotherThreadsClauseStayKeyedByIt) {
  lay("BEGIN { self->n = 1; } END { self->k = 1; }");
  SpeculationLimits speculations;
  layout = computeLayout(clauses, symbols, false, types.stringBufferSize(), speculations,
                         kAllocaSize, {}, {1});
  EXPECT_TRUE(layout.dynamics.at(symbols.dynamics().at(0)->dynamicId).perTask);
  EXPECT_FALSE(layout.dynamics.at(symbols.dynamics().at(1)->dynamicId).perTask);
}

}  // namespace
}  // namespace dtrace::codegen
