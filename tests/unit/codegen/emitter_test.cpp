// The generated eBPF against the real kernel: every program must pass the
// verifier, and BEGIN-type programs are run (BPF_PROG_RUN) so that what
// they store in globals, records and aggregations can be checked against
// D's semantics. Needs root; skipped without it.
#include "codegen/emitter.h"

#include <gtest/gtest.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bpf/attach.h"
#include "bpf/cpu_rings.h"
#include "bpf/map.h"
#include "bpf/program.h"
#include "bpf/ringbuf.h"
#include "consume/aggregation_reader.h"
#include "consume/aggregation_snapshot.h"
#include "parse/parser.h"
#include "sema/checker.h"
#include "types/kernel_btf.h"

namespace dtrace::codegen {
namespace {

using Bytes = std::vector<uint8_t>;

// BEGIN as the session loads it: a raw-tracepoint program run by the
// consumer, its context six u64 arguments.
providers::Probe beginProbe() {
  providers::Probe p;
  p.id = 1;
  p.provider = "dtrace";
  p.name = "BEGIN";
  p.progType = BPF_PROG_TYPE_RAW_TRACEPOINT;
  for (int i = 0; i < 6; i++) {
    p.args.push_back({.kind = providers::ArgSource::Kind::CtxField,
                      .offset = static_cast<int16_t>(8 * i),
                      .size = 8,
                      .isSigned = true,
                      .typeName = "uint64_t"});
  }
  return p;
}

// syscall::getppid:entry/return as tracepoint programs: the sys_enter_*
// format has the arguments as longs from offset 16, sys_exit_* has ret there.
providers::Probe syscallProbe(bool isReturn) {
  providers::Probe p;
  p.id = 1000;
  p.provider = "syscall";
  p.function = "getppid";
  p.name = isReturn ? "return" : "entry";
  p.progType = BPF_PROG_TYPE_TRACEPOINT;
  if (isReturn) {
    providers::ArgSource ret{.kind = providers::ArgSource::Kind::SyscallReturn,
                             .offset = 16,
                             .size = 8,
                             .isSigned = true,
                             .typeName = "long"};
    p.args = {ret, ret};
  } else {
    for (int i = 0; i < 6; i++) {
      p.args.push_back({.kind = providers::ArgSource::Kind::CtxField,
                        .offset = static_cast<int16_t>(16 + 8 * i),
                        .size = 8,
                        .isSigned = false,
                        .typeName = "unsigned long"});
    }
  }
  return p;
}

// A decoded record: header plus the raw data after it.
struct Record {
  ir::RecordHeader header{};
  Bytes data;

  template <typename T>
  T at(uint32_t offset) const {
    T v{};
    EXPECT_LE(offset + sizeof(T), data.size());
    if (offset + sizeof(T) <= data.size()) std::memcpy(&v, data.data() + offset, sizeof(T));
    return v;
  }
  std::string string(uint32_t offset, uint32_t size) const {
    std::string s(reinterpret_cast<const char*>(data.data()) + offset,
                  std::min<size_t>(size, data.size() - offset));
    return s.substr(0, s.find('\0'));
  }
  ir::FaultRecord fault() const { return at<ir::FaultRecord>(0); }
};

// One compiled enabling with its maps and loaded program.
struct Harness {
  // Compiles src, creates the maps as driver::Program::createMaps does,
  // generates the program of `probe` for every clause (EPID = clause
  // number) and loads it. Returns "" or the error (with the verifier log).
  std::string load(std::string_view src, const providers::Probe& probe,
                   Activity expected = Activity::Warmup) {
    probe_ = probe;
    expected_ = expected;
    parse::ParseOptions po;
    po.isTypeName = [this](std::string_view n, bool) { return types.isTypeName(n); };
    parse::ParseResult parsed = parse::parseProgram(src, po);
    if (!parsed.diags.empty())
      return "parse: " + formatDiagnostic(parsed.diags.first(), true, true);
    program = std::make_unique<ast::Program>(std::move(parsed.program));
    Diagnostics diags;
    sema::Checker checker(types, symbols, macros, diags);
    if (!checker.check(*program) || !diags.empty()) {
      return "check: " + formatDiagnostic(diags.first(), true, true);
    }
    for (auto& item : program->items) {
      if (auto* c = std::get_if<ast::ProbeClause>(&item)) clauses.push_back(c);
    }
    layout = computeLayout(clauses, symbols, /*quiet=*/true, types.stringBufferSize());
    layout.runtime.aggregationBytesPerCpu = aggsize;
    if (std::string err = createMaps(); !err.empty()) return err;

    MapFds fds;
    fds.globals = globals->fd();
    fds.scratch = scratch->fd();
    fds.counters = counters->fd();
    fds.cpuRings = rings->arrayFd();
    fds.aggregations = refer(aggregations);
    fds.dynamics = refer(dynamics);
    fds.aggregationZero = aggregationZero->fd();
    std::vector<EnabledClause> enabled;
    for (size_t i = 0; i < layout.clauses.size(); i++) {
      enabled.push_back({&layout.clauses[i], static_cast<uint32_t>(i + 1)});
    }
    ProgramEmitter emitter(probe_, expected_, layout, fds, types,
                           [](const char* type, const char* member) {
                             return types::KernelBtf::instance().memberOffset(type, member);
                           });
    auto insns = emitter.emit(enabled);
    if (!insns) return "emit: " + insns.error().message;
    std::string log;
    auto loaded = bpf::Program::load(probe_.progType, "dt_test", *insns, &log);
    if (!loaded) return "load: " + loaded.error().message;
    prog.emplace(std::move(*loaded));
    return "";
  }

  std::string createMaps() {
    auto g = bpf::Map::create(BPF_MAP_TYPE_ARRAY, "dt_globals", 4, layout.globalsSize, 1,
                              BPF_F_MMAPABLE);
    if (!g) return "globals: " + g.error().message;
    globals.emplace(std::move(*g));
    auto mapped = globals->mmapValue();
    if (!mapped) return "mmap: " + mapped.error().message;
    globalsValue = static_cast<volatile uint8_t*>(*mapped);
    auto s = bpf::Map::create(BPF_MAP_TYPE_PERCPU_ARRAY, "dt_scratch", 4,
                              (layout.scratchSize + 7) / 8 * 8, 1);
    if (!s) return "scratch: " + s.error().message;
    scratch.emplace(std::move(*s));
    auto c = bpf::Map::create(BPF_MAP_TYPE_PERCPU_ARRAY, "dt_counters", 4, sizeof(Counters), 1);
    if (!c) return "counters: " + c.error().message;
    counters.emplace(std::move(*c));
    auto r = bpf::CpuRings::create(bpf::Map::possibleCpus(), 1 << 16);
    if (!r) return "rings: " + r.error().message;
    rings.emplace(std::move(*r));
    if (auto f = rings->fillArray(); !f) return "rings: " + f.error().message;
    uint32_t largest = 8;
    for (const ir::Aggregation& agg : layout.aggregations) {
      auto m = bpf::Map::create(BPF_MAP_TYPE_HASH, "dt_agg", agg.keySize + ir::kAggregationCpuSlot,
                                agg.valueSize(), 1024, BPF_F_NO_PREALLOC);
      if (!m) return "aggregation: " + m.error().message;
      aggregations.push_back(std::move(*m));
      largest = std::max(largest, agg.valueSize());
      const uint64_t first = 1;
      std::memcpy(const_cast<uint8_t*>(globalsValue) + agg.generationOffset, &first, 8);
    }
    auto z = bpf::Map::create(BPF_MAP_TYPE_ARRAY, "dt_aggzero", 4, largest, 1);
    if (!z) return "aggregation zero: " + z.error().message;
    aggregationZero.emplace(std::move(*z));
    for (const DynamicLayout& d : layout.dynamics) {
      auto m = d.perTask ? bpf::Map::createTaskStorage("dt_self", d.valueSize)
                         : bpf::Map::create(BPF_MAP_TYPE_HASH, "dt_dynvar", d.keySize, d.valueSize,
                                            1024, BPF_F_NO_PREALLOC);
      if (!m) return "dynamic variable: " + m.error().message;
      dynamics.push_back(std::move(*m));
    }
    return "";
  }

  // How the program reaches each of `maps`: directly, or with shareMaps
  // through an array of maps of its shape, as a program over the kernel's
  // limit of maps does.
  std::vector<MapRef> refer(const std::vector<bpf::Map>& maps) {
    std::vector<MapRef> refs;
    for (const bpf::Map& m : maps) refs.push_back(MapRef{m.fd()});
    if (!shareMaps) return refs;
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> shapes;
    for (uint32_t i = 0; i < maps.size(); i++) {
      // Task storage is never an array's member (DynamicLayout::perTask).
      if (maps[i].type() == BPF_MAP_TYPE_TASK_STORAGE) continue;
      shapes[{maps[i].keySize(), maps[i].valueSize()}].push_back(i);
    }
    for (const auto& [shape, members] : shapes) {
      auto array = bpf::Map::createArrayOfMaps("dt_maps", maps[members[0]].fd(),
                                               static_cast<uint32_t>(members.size()));
      EXPECT_TRUE(array.ok()) << (array.ok() ? "" : array.error().message);
      if (!array) return refs;
      for (uint32_t slot = 0; slot < members.size(); slot++) {
        const uint32_t fd = static_cast<uint32_t>(maps[members[slot]].fd());
        EXPECT_TRUE(array->update(&slot, &fd).ok());
        refs[members[slot]] = MapRef{array->fd(), static_cast<int32_t>(slot)};
      }
      arrays.push_back(std::move(*array));
    }
    return refs;
  }

  void setState(Activity a) {
    std::memcpy(const_cast<uint8_t*>(globalsValue) + kStateOffset, &a, sizeof a);
  }
  uint64_t state() {
    uint64_t v;
    std::memcpy(&v, const_cast<const uint8_t*>(globalsValue) + kStateOffset, sizeof v);
    return v;
  }

  // Fires the loaded BEGIN-type program once with these probe arguments.
  void fire(std::vector<uint64_t> args = {}) {
    ASSERT_TRUE(prog.has_value());
    args.resize(6, 0);
    if (state() == static_cast<uint64_t>(Activity::Inactive)) setState(expected_);
    auto r = prog->run(args);
    ASSERT_TRUE(r.ok()) << r.error().message;
  }
  // load() and fire() in one; stops the test on a load failure.
  void run(std::string_view src, std::vector<uint64_t> args = {}) {
    std::string err = load(src, beginProbe());
    ASSERT_EQ(err, "");
    fire(std::move(args));
  }

  // The value of global `name`, extended by its type as D reads it.
  int64_t global(const char* name) {
    const sema::Variable* v = symbols.findGlobal(name);
    EXPECT_NE(v, nullptr) << name;
    if (!v) return INT64_MIN;
    uint64_t raw = 0;
    // A scalar variable's word holds the register as it was stored.
    const uint32_t size = codegen::holdsRegister(*v) ? 8 : v->type->size;
    std::memcpy(&raw, const_cast<const uint8_t*>(globalsValue) + v->offset, size);
    if (size < 8) {
      uint32_t bits = v->type->size * 8;
      raw &= (uint64_t{1} << bits) - 1;
      if (v->type->isSigned && (raw >> (bits - 1)) & 1) raw |= ~uint64_t{0} << bits;
    }
    return static_cast<int64_t>(raw);
  }
  std::string globalString(const char* name) {
    const sema::Variable* v = symbols.findGlobal(name);
    EXPECT_NE(v, nullptr) << name;
    if (!v) return "";
    std::string s(
        reinterpret_cast<const char*>(const_cast<const uint8_t*>(globalsValue)) + v->offset,
        v->type->size);
    return s.substr(0, s.find('\0'));
  }

  // Every record in the CPUs' ring buffers, CPU after CPU.
  std::vector<Record> records() {
    std::vector<Record> out;
    auto rb = bpf::RingBuffer::open(rings->ringFds(), [&](const void* data, size_t size) {
      Record r;
      std::memcpy(&r.header, data, sizeof r.header);
      const uint8_t* p = static_cast<const uint8_t*>(data) + sizeof r.header;
      r.data.assign(p, p + (size - sizeof r.header));
      out.push_back(std::move(r));
      return 0;
    });
    EXPECT_TRUE(rb.ok()) << (rb.ok() ? "" : rb.error().message);
    if (rb.ok()) (void)rb->consume();
    return out;
  }

  // The aggregation's tuple `key` merged over CPUs, read the way the
  // consumer reads it: its merged data words (a distribution: the count of
  // every bucket); empty when the tuple is not in the map.
  std::vector<int64_t> aggregation(size_t id, const Bytes& key) {
    const ir::Aggregation& agg = layout.aggregations.at(id);
    auto data = consume::readAggregation(agg, aggregations.at(id).fd(), 1, false);
    if (!data) return {};
    for (size_t i = 0; i < data->size(); i++) {
      if (std::memcmp(data->key(i), key.data(), key.size()) != 0) continue;
      if (!agg.bucketed()) {
        return std::vector<int64_t>(data->merged(i), data->merged(i) + agg.dataWords());
      }
      std::vector<int64_t> buckets(agg.dataWords(), 0);
      const ir::SparseDistribution d(data->merged(i));
      for (uint32_t b = 0; b < d.size(); b++) buckets.at(d.bucket(b)) = d.count(b);
      return buckets;
    }
    return {};
  }
  Bytes zeroKey(size_t id) { return Bytes(layout.aggregations.at(id).keySize, 0); }

  Counters counterTotals() {
    std::vector<Counters> per(bpf::Map::possibleCpus());
    uint32_t key = 0;
    EXPECT_TRUE(counters->lookup(&key, per.data()));
    Counters total{};
    for (const auto& c : per) {
      total.bufferDrops += c.bufferDrops;
      total.aggregationDrops += c.aggregationDrops;
      total.dynamicDrops += c.dynamicDrops;
      total.errors += c.errors;
    }
    return total;
  }

  const ir::Field& field(size_t clause, size_t action, size_t index = 0) {
    return layout.clauses.at(clause).orderedActions.at(action).fields.at(index);
  }

  sema::TypeTable types;
  sema::SymbolTable symbols;
  sema::MacroTable macros;
  std::unique_ptr<ast::Program> program;
  std::vector<ast::ProbeClause*> clauses;
  Layout layout;
  providers::Probe probe_;
  Activity expected_ = Activity::Warmup;
  uint64_t aggsize = 4 << 20;
  std::optional<bpf::Map> globals, scratch, counters, aggregationZero;
  std::optional<bpf::CpuRings> rings;
  std::vector<bpf::Map> aggregations, dynamics, arrays;
  bool shareMaps = false;
  volatile uint8_t* globalsValue = nullptr;
  std::optional<bpf::Program> prog;
};

class EmitterTest : public ::testing::Test, public Harness {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root";
    ASSERT_TRUE(bpf::prepareProcess().ok());
  }
};

// ---- the verifier accepts representative clauses ---------------------------------

const char* const kRepresentativeClauses[] = {
    "{ x = 1 + 2 * arg0; y = x / 3; z = x % 7; w = -x; v = ~x; s = x << 3; r = x >> 1; }",
    "{ a = arg0 < arg1; b = arg0 == 3; c = arg0 >= 2u; d = !arg0; e = arg0 && arg1; }",
    "{ f = arg0 || arg1; g = arg0 ^^ arg1; h = arg0 ? 1 : 2; i = (char)arg0; j = (uint16_t)arg1; }",
    "{ n = execname; m = execname == \"bash\"; p = probefunc; q = probename != \"x\"; }",
    "{ trace(arg0); trace(execname); trace(\"literal\"); trace(pid); trace(timestamp); }",
    "{ printf(\"%d %s %u %x\\n\", arg0, execname, uid, arg1); }",
    "{ @c[execname] = count(); @s[pid, execname] = sum(arg0); }",
    "{ @mn = min(arg0); @mx = max(arg1); @av = avg(arg0); @[probefunc] = count(); }",
    "{ if (arg0 > 1) { trace(1); } else { printf(\"no\\n\"); } }",
    "{ this->t = timestamp; this->s = execname; k = this->t + 1; trace(this->s); }",
    "/arg0 != 0/ { exit(0); }",
    "{ cnt++; cnt += arg0; cnt -= 1; cnt *= 2; cnt /= 3; cnt %= 5; cnt <<= 1; cnt |= 1; }",
    "{ t = tid; u = uid; gg = gid; pp = ppid; cc = cpu; e = epid; i2 = id; wt = walltimestamp; }",
    "{ vt = vtimestamp; er = errno; }",
};

TEST_F(EmitterTest, VerifierAcceptsBeginClauses) {
  for (const char* body : kRepresentativeClauses) {
    SCOPED_TRACE(body);
    Harness fresh;  // fresh symbols and maps per clause
    EXPECT_EQ(fresh.load(std::string("BEGIN ") + body, beginProbe()), "");
  }
}

TEST_F(EmitterTest, VerifierAcceptsSyscallEntryClauses) {
  for (const char* body : kRepresentativeClauses) {
    SCOPED_TRACE(body);
    Harness fresh;
    EXPECT_EQ(fresh.load(std::string("syscall::getppid:entry ") + body, syscallProbe(false),
                         Activity::Active),
              "");
  }
}

TEST_F(EmitterTest, VerifierAcceptsSyscallReturnClauses) {
  for (const char* body : kRepresentativeClauses) {
    SCOPED_TRACE(body);
    Harness fresh;
    EXPECT_EQ(fresh.load(std::string("syscall::getppid:return ") + body, syscallProbe(true),
                         Activity::Active),
              "");
  }
}

TEST_F(EmitterTest, VerifierAcceptsEndClauses) {
  Harness fresh;
  providers::Probe end = beginProbe();
  end.id = 2;
  end.name = "END";
  EXPECT_EQ(
      fresh.load("END { printf(\"%d\\n\", 1); exit(2); @a = count(); }", end, Activity::Cooldown),
      "");
}

TEST_F(EmitterTest, VerifierAcceptsManyClausesInOneProgram) {
  std::string src;
  for (const char* body : kRepresentativeClauses) src += std::string("BEGIN ") + body + "\n";
  EXPECT_EQ(load(src, beginProbe()), "");
}

TEST_F(EmitterTest, VerifierAcceptsLongStringComparisons) {
  EXPECT_EQ(load("BEGIN { s = execname; t = probefunc; a = s < t; b = s == t; "
                 "c = \"a very long string literal beyond eight bytes\" > s; }",
                 beginProbe()),
            "");
}

// ---- arithmetic at run time -----------------------------------------------------

TEST_F(EmitterTest, ConstantStoreSetsTheGlobal) {
  run("BEGIN { x = 6 * 7; }");
  EXPECT_EQ(global("x"), 42);
}

TEST_F(EmitterTest, ProbeArgumentsAreRead) {
  run("BEGIN { x = arg0 + arg1; y = arg5; }", {7, static_cast<uint64_t>(-3), 0, 0, 0, 99});
  EXPECT_EQ(global("x"), 4);
  EXPECT_EQ(global("y"), 99);
}

TEST_F(EmitterTest, SignedDivisionTruncatesTowardZero) {
  run("BEGIN { a = -7; b = 2; q = a / b; r = a % b; q2 = 7 / (b - 4); r2 = 7 % (b - 4); }");
  EXPECT_EQ(global("q"), -3);
  EXPECT_EQ(global("r"), -1);
  EXPECT_EQ(global("q2"), -3);
  EXPECT_EQ(global("r2"), 1);
}

TEST_F(EmitterTest, SignedDivisionByAConstant) {
  run("BEGIN { a = -7; q = a / 2; r = a % 2; l = -9l; ql = l / 4; }");
  EXPECT_EQ(global("q"), -3);
  EXPECT_EQ(global("r"), -1);
  EXPECT_EQ(global("ql"), -2);
}

TEST_F(EmitterTest, UnsignedDivisionAndModulo) {
  run("BEGIN { u = 0xfffffff8; d = 2u; q = u / d; r = u % 10u; "
      "big = 0xfffffffffffffff0; qb = big / 16; }");
  EXPECT_EQ(global("q"), 2147483644);
  EXPECT_EQ(global("r"), 4294967288LL % 10);
  EXPECT_EQ(static_cast<uint64_t>(global("qb")), 0x0fffffffffffffffULL);
}

TEST_F(EmitterTest, MixedSignednessDivisionIsUnsignedOnTheRegisters) {
  // The 64-bit register -8 divided unsigned, as DIF's UDIV does it; a
  // record of the unsigned int result keeps its low 32 bits (4294967292).
  run("BEGIN { i = -8; u = 2u; q = i / u; }");
  EXPECT_EQ(global("q"), 9223372036854775804LL);
}

TEST_F(EmitterTest, IntKeepsItsRegisterUntilRecorded) {
  // Registers keep 64 bits, as DIF's do, and so do the variables they are
  // stored in (illumos dt_cg_asgn_op); a cast to the same type leaves the
  // register (dt_cg_typecast), a narrower one cuts it.
  run("BEGIN { i = 2147483647; j = i + 1; u = 0u; v = u - 1; k = 65536; m = k * k; "
      "l = 0l; w = l + (i + 1); q = k * k / k; c = (int)(i + 1) < 0; s = (short)(k * k); }");
  EXPECT_EQ(global("j"), 2147483648LL);
  EXPECT_EQ(global("v"), -1);
  EXPECT_EQ(global("m"), 4294967296LL);
  EXPECT_EQ(global("w"), 2147483648LL);
  EXPECT_EQ(global("q"), 65536);
  EXPECT_EQ(global("c"), 0);
  EXPECT_EQ(global("s"), 0);
}

TEST_F(EmitterTest, ShiftsByVariables) {
  run("BEGIN { n = 40; l = 1l; a = l << n; two = 2; i = -16; b = i >> two; "
      "u = 0x80000000; c = u >> two; ul = 0x8000000000000000; d = ul >> n; }");
  EXPECT_EQ(global("a"), int64_t{1} << 40);
  EXPECT_EQ(global("b"), -4);          // arithmetic shift of a signed int
  EXPECT_EQ(global("c"), 0x20000000);  // logical shift of an unsigned int
  EXPECT_EQ(global("d"), 0x800000);
}

TEST_F(EmitterTest, BitwiseOperators) {
  run("BEGIN { a = 0xf0; b = 0x3c; o = a | b; x = a ^ b; n = a & b; c = ~a; }");
  EXPECT_EQ(global("o"), 0xfc);
  EXPECT_EQ(global("x"), 0xcc);
  EXPECT_EQ(global("n"), 0x30);
  EXPECT_EQ(global("c"), ~0xf0);
}

// Stores to memory keep the bytes of the member's width (dt_cg_store);
// a variable keeps the register.
TEST_F(EmitterTest, NarrowingStoresToMembersTruncate) {
  run("struct n { char c; short s; unsigned char uc; unsigned short us; int i; } x; char v; "
      "BEGIN { x.c = 300; x.s = 70000; x.uc = -1; x.us = -1; x.i = 0x1ffffffffl; "
      "c = x.c; s = x.s; uc = x.uc; us = x.us; i = x.i; w = 300; v = w; }");
  EXPECT_EQ(global("c"), 44);
  EXPECT_EQ(global("s"), 4464);
  EXPECT_EQ(global("uc"), 255);
  EXPECT_EQ(global("us"), 65535);
  EXPECT_EQ(global("i"), -1);
  EXPECT_EQ(global("v"), 300);
}

// A variable keeps the register it was given (illumos dt_cg_asgn_op): a
// char holding 200 reads back as 200; a cast to a wider type sign-extends
// from the char's width (dt_cg_typecast).
TEST_F(EmitterTest, VariablesKeepTheRegisterCastsWidenBySign) {
  run("char c; unsigned char uc; BEGIN { i = 200; c = i; uc = i; a = c + 0; b = uc + 0; "
      "l = (long)c; }");
  EXPECT_EQ(global("a"), 200);
  EXPECT_EQ(global("b"), 200);
  EXPECT_EQ(global("l"), -56);
}

// An int variable given a 64-bit value keeps all of it: later arithmetic
// sees it whole, a same-width cast leaves it, a narrowing one cuts it.
TEST_F(EmitterTest, AnIntVariableKeepsA64BitValue) {
  run("BEGIN { v = 0x100000005; t = 0; t = v; d = t - 5; s = (int)t; c = (short)t; w = (long)t; "
      "k = 0; k = 0x100000005; }");
  EXPECT_EQ(global("d"), 0x100000000LL);
  EXPECT_EQ(global("s"), 0x100000005LL);
  EXPECT_EQ(global("c"), 5);
  EXPECT_EQ(global("w"), 5);
  EXPECT_EQ(global("k"), 5);  // a constant is converted to the variable's type
}

TEST_F(EmitterTest, CastsOfVariables) {
  run("BEGIN { v = 0x1234; c = (char)v; u = (unsigned char)v; m = -1; w = (unsigned int)m; "
      "z = (long)w; }");
  EXPECT_EQ(global("c"), 0x34);
  EXPECT_EQ(global("u"), 0x34);
  EXPECT_EQ(global("w"), 4294967295LL);
  EXPECT_EQ(global("z"), 4294967295LL);
}

TEST_F(EmitterTest, CompoundAssignmentWrapsAtTheMemberWidth) {
  run("struct n { char c; } s; BEGIN { s.c = 127; s.c += 1; c = s.c; x = 5; x *= 3; x -= 1; "
      "x /= 2; x %= 4; x <<= 3; x |= 1; x ^= 3; x &= 0xe; }");
  EXPECT_EQ(global("c"), -128);
  // ((((5*3-1)/2)%4)<<3 | 1) ^ 3 & 0xe: 14/2=7, 7%4=3, 24|1=25, 25^3=26, 26&14=10
  EXPECT_EQ(global("x"), 10);
}

TEST_F(EmitterTest, IncrementAndDecrement) {
  run("BEGIN { i = 5; j = i++; k = ++i; m = i--; n = --i; }");
  EXPECT_EQ(global("j"), 5);
  EXPECT_EQ(global("k"), 7);
  EXPECT_EQ(global("m"), 7);
  EXPECT_EQ(global("n"), 5);
  EXPECT_EQ(global("i"), 5);
}

TEST_F(EmitterTest, IncrementWrapsAtTheMemberWidth) {
  run("struct n { unsigned char b; } s; unsigned char v; "
      "BEGIN { s.b = 255; s.b++; b = s.b; v = 255; v++; }");
  EXPECT_EQ(global("b"), 0);
  EXPECT_EQ(global("v"), 256);  // a variable keeps the register
}

// ---- comparisons ----------------------------------------------------------------

TEST_F(EmitterTest, SignedAndUnsignedComparisons) {
  run("BEGIN { a = -1; z = 0u; lt = a < z; l = -1l; ltl = l < z; sl = a < 0; "
      "eq = a == 0xffffffffu; big = 0xffffffffffffffff; gt = big > 1; }");
  EXPECT_EQ(global("lt"), 0);   // compared unsigned, -1 is the largest
  EXPECT_EQ(global("ltl"), 1);  // long holds every unsigned int
  EXPECT_EQ(global("sl"), 1);
  EXPECT_EQ(global("eq"), 0);  // the registers differ, as in illumos
  EXPECT_EQ(global("gt"), 1);  // unsigned long
}

TEST_F(EmitterTest, ComparisonOperators) {
  run("BEGIN { a = 3; b = 5; r1 = a < b; r2 = a <= a; r3 = a > b; r4 = b >= a; r5 = a == b; "
      "r6 = a != b; }");
  EXPECT_EQ(global("r1"), 1);
  EXPECT_EQ(global("r2"), 1);
  EXPECT_EQ(global("r3"), 0);
  EXPECT_EQ(global("r4"), 1);
  EXPECT_EQ(global("r5"), 0);
  EXPECT_EQ(global("r6"), 1);
}

TEST_F(EmitterTest, LogicalOperatorsShortCircuit) {
  // 1 / z would fault if evaluated.
  run("BEGIN { z = 0; o = 1; a = z && (1 / z); b = o || (1 / z); c = o ^^ z; d = o ^^ o; "
      "e = !z; }");
  EXPECT_EQ(global("a"), 0);
  EXPECT_EQ(global("b"), 1);
  EXPECT_EQ(global("c"), 1);
  EXPECT_EQ(global("d"), 0);
  EXPECT_EQ(global("e"), 1);
  EXPECT_TRUE(records().empty());
}

TEST_F(EmitterTest, TernaryPicksAnArm) {
  run("BEGIN { x = arg0 ? 10 : 20; y = arg1 ? 10 : 20; }", {1, 0});
  EXPECT_EQ(global("x"), 10);
  EXPECT_EQ(global("y"), 20);
}

TEST_F(EmitterTest, StringComparisons) {
  run("BEGIN { s = \"abc\"; t = \"abd\"; lt = s < t; gt = t > s; eq = s == \"abc\"; "
      "ne = s != t; pre = \"ab\" < s; le = s <= s; ge = s >= t; }");
  EXPECT_EQ(global("lt"), 1);
  EXPECT_EQ(global("gt"), 1);
  EXPECT_EQ(global("eq"), 1);
  EXPECT_EQ(global("ne"), 1);
  EXPECT_EQ(global("pre"), 1);  // a prefix sorts first
  EXPECT_EQ(global("le"), 1);
  EXPECT_EQ(global("ge"), 0);
}

TEST_F(EmitterTest, LongStringComparisons) {
  run("BEGIN { s = \"abcdefghijklmnop1\"; t = \"abcdefghijklmnop2\"; lt = s < t; "
      "eq = s == \"abcdefghijklmnop1\"; ne = s == t; hi = \"b\" > s; "
      "u = \"\\xff\"; un = u > \"a\"; }");
  EXPECT_EQ(global("lt"), 1);
  EXPECT_EQ(global("eq"), 1);
  EXPECT_EQ(global("ne"), 0);
  EXPECT_EQ(global("hi"), 1);
  EXPECT_EQ(global("un"), 1);  // bytes compare as unsigned char, like strcmp
}

TEST_F(EmitterTest, EqualStringsWithDifferentBytesAfterTheNul) {
  // The second assignment leaves "xy\0" over "xyz": bytes after the NUL
  // must not matter.
  run("BEGIN { s = \"xyz\"; s = \"xy\"; eq = s == \"xy\"; }");
  EXPECT_EQ(globalString("s"), "xy");
  EXPECT_EQ(global("eq"), 1);
}

// ---- strings, built-ins -------------------------------------------------------

TEST_F(EmitterTest, StringGlobalsHoldTheirValue) {
  run("BEGIN { s = \"hello\"; t = s; n = execname; f = probename; }");
  EXPECT_EQ(globalString("s"), "hello");
  EXPECT_EQ(globalString("t"), "hello");
  char comm[16] = {};
  prctl(PR_GET_NAME, comm);
  EXPECT_EQ(globalString("n"), comm);
  EXPECT_EQ(globalString("f"), "BEGIN");
}

TEST_F(EmitterTest, ExecnameComparesWithALiteral) {
  char comm[16] = {};
  prctl(PR_GET_NAME, comm);
  run(std::string("BEGIN { a = execname == \"") + comm + "\"; b = execname == \"nope\"; }");
  EXPECT_EQ(global("a"), 1);
  EXPECT_EQ(global("b"), 0);
}

TEST_F(EmitterTest, ProcessBuiltins) {
  run("BEGIN { p = pid; t = tid; u = uid; g = gid; pp = ppid; }");
  EXPECT_EQ(global("p"), getpid());
  EXPECT_EQ(global("t"), static_cast<int64_t>(syscall(SYS_gettid)));
  EXPECT_EQ(global("u"), getuid());
  EXPECT_EQ(global("g"), getgid());
  EXPECT_EQ(global("pp"), getppid());
}

TEST_F(EmitterTest, ProbeIdentityBuiltins) {
  run("BEGIN { e = epid; i = id; }");
  EXPECT_EQ(global("e"), 1);
  EXPECT_EQ(global("i"), 1);
}

TEST_F(EmitterTest, TimestampIsMonotonicNanoseconds) {
  timespec before{};
  clock_gettime(CLOCK_MONOTONIC, &before);
  run("BEGIN { t = timestamp; }");
  timespec after{};
  clock_gettime(CLOCK_MONOTONIC, &after);
  uint64_t t = static_cast<uint64_t>(global("t"));
  EXPECT_GE(t, static_cast<uint64_t>(before.tv_sec) * 1000000000 + before.tv_nsec);
  EXPECT_LE(t, static_cast<uint64_t>(after.tv_sec) * 1000000000 + after.tv_nsec);
}

// The register keeps the whole product; a narrower cast wraps it.
TEST_F(EmitterTest, UnsignedIntMultiplicationWrapsWhenCut) {
  run("BEGIN { u = 0xffffffffu; v = u * u; w = u + u; c = (unsigned short)(u * u); }");
  EXPECT_EQ(static_cast<uint64_t>(global("v")), 0xfffffffe00000001ULL);
  EXPECT_EQ(global("w"), 8589934590LL);
  EXPECT_EQ(global("c"), 1);
}

TEST_F(EmitterTest, NegativeCharShiftsArithmetically) {
  run("char c; BEGIN { c = -8; one = 1; x = c >> one; y = c >> 1; }");
  EXPECT_EQ(global("x"), -4);
  EXPECT_EQ(global("y"), -4);
}

// unsigned char outranks char: the registers compare unsigned, as they
// are (illumos dt_cg_compare_op): -1 is no 255.
TEST_F(EmitterTest, CharAndUnsignedCharCompareRegistersUnsigned) {
  run("char c; unsigned char uc; BEGIN { c = -1; uc = 255; eq = c == uc; lt = c < uc; "
      "eqc = (unsigned char)c == uc; }");
  EXPECT_EQ(global("eq"), 0);
  EXPECT_EQ(global("lt"), 0);
  EXPECT_EQ(global("eqc"), 1);
}

TEST_F(EmitterTest, LongVersusUnsignedLongComparesUnsigned) {
  run("BEGIN { l = -1l; ul = 1ul; lt = l < ul; }");
  EXPECT_EQ(global("lt"), 0);
}

TEST_F(EmitterTest, Int64MinDividedByMinusOne) {
  run("BEGIN { m = 0x8000000000000000; l = (long)m; n = -1l; q = l / n; r = l % n; }");
  EXPECT_EQ(global("q"), INT64_MIN);
  EXPECT_EQ(global("r"), 0);
}

TEST_F(EmitterTest, StringTernary) {
  run("BEGIN { s = arg0 ? \"yes\" : \"no\"; t = arg1 ? \"yes\" : \"no\"; }", {1, 0});
  EXPECT_EQ(globalString("s"), "yes");
  EXPECT_EQ(globalString("t"), "no");
}

TEST_F(EmitterTest, TraceOfAStringVariable) {
  run("BEGIN { s = \"from a global\"; this->t = \"from scratch\"; trace(s); "
      "printf(\"%s\", this->t); }");
  std::vector<Record> recs = records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].string(field(0, 0).offset, field(0, 0).size), "from a global");
  EXPECT_EQ(recs[0].string(field(0, 1).offset, field(0, 1).size), "from scratch");
}

TEST_F(EmitterTest, ExecnameComparedWithALongerLiteral) {
  run("BEGIN { a = execname == \"a-name-much-longer-than-sixteen-bytes\"; "
      "b = execname < \"\\xff-longer-than-sixteen-bytes\"; }");
  EXPECT_EQ(global("a"), 0);
  EXPECT_EQ(global("b"), 1);
}

TEST_F(EmitterTest, StringCopiedFromExecnameIntoThis) {
  char comm[16] = {};
  prctl(PR_GET_NAME, comm);
  run("BEGIN { this->n = execname; same = this->n == execname; s = this->n; }");
  EXPECT_EQ(global("same"), 1);
  EXPECT_EQ(globalString("s"), comm);
}

TEST_F(EmitterTest, DeepExpressionsSpillCorrectly) {
  run("BEGIN { a = 1; b = 2; c = 3; d = 4; "
      "x = ((a + b) * (c + d)) - ((a * b) + (c * d)) + ((a - b) * (c - d)) * ((b + c) - (a + d)); "
      "}");
  // 21 - 14 + 1 * 0 = 7
  EXPECT_EQ(global("x"), 7);
}

TEST_F(EmitterTest, SumOfNarrowNegativeValues) {
  ASSERT_EQ(load("BEGIN { @s = sum((char)arg0); }", beginProbe()), "");
  fire({0xff});
  fire({0xff});
  EXPECT_EQ(aggregation(0, zeroKey(0))[0], -2);
}

TEST_F(EmitterTest, AggregationKeyedByAStringVariable) {
  ASSERT_EQ(load("BEGIN { s = \"key\"; @[s] = count(); }", beginProbe()), "");
  fire();
  Bytes key(layout.aggregations.at(0).keySize, 0);
  std::memcpy(key.data(), "key", 3);
  EXPECT_EQ(aggregation(0, key)[0], 1);
}

TEST_F(EmitterTest, NewKeysBeyondAggsizeAreDropsUntilTheNextInterval) {
  // Three entries of an 8-byte key and a count, on the one CPU this
  // thread stays on.
  cpu_set_t one, saved;
  ASSERT_EQ(sched_getaffinity(0, sizeof saved, &saved), 0);
  CPU_ZERO(&one);
  CPU_SET(sched_getcpu(), &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  aggsize = 3 * 16;
  ASSERT_EQ(load("BEGIN { @c[arg0] = count(); }", beginProbe()), "");
  for (uint64_t k : {1, 2, 1, 3, 4, 5, 3}) fire({k});
  EXPECT_EQ(counterTotals().aggregationDrops, 2u);
  Bytes key(layout.aggregations.at(0).keySize, 0);
  key[0] = 1;
  EXPECT_EQ(aggregation(0, key)[0], 2);
  key[0] = 3;
  EXPECT_EQ(aggregation(0, key)[0], 2);
  // The consumer starts the next aggregation interval: aggsize is whole again.
  uint64_t epoch = 1;
  std::memcpy(const_cast<uint8_t*>(globalsValue) + layout.aggregationEpochOffset, &epoch, 8);
  fire({4});
  EXPECT_EQ(counterTotals().aggregationDrops, 2u);
  key[0] = 4;
  EXPECT_EQ(aggregation(0, key)[0], 1);
  ASSERT_EQ(sched_setaffinity(0, sizeof saved, &saved), 0);
}

// ---- this-> variables -----------------------------------------------------------

TEST_F(EmitterTest, ThisVariablesCarryValuesWithinAClause) {
  run("BEGIN { this->a = 5; this->b = this->a * 3; x = this->b; this->s = \"xyz\"; "
      "eq = this->s == \"xyz\"; t = this->s; }");
  EXPECT_EQ(global("x"), 15);
  EXPECT_EQ(global("eq"), 1);
  EXPECT_EQ(globalString("t"), "xyz");
}

TEST_F(EmitterTest, ThisVariableKeepsTheRegister) {
  run("this char c; BEGIN { v = 300; this->c = v; x = this->c; y = (unsigned char)this->c; }");
  EXPECT_EQ(global("x"), 300);
  EXPECT_EQ(global("y"), 44);
}

// ---- control flow -----------------------------------------------------------------

TEST_F(EmitterTest, IfElseTakesOneBranch) {
  run("BEGIN { x = arg0; if (x > 0) { y = 10; } else { y = 20; } "
      "if (x < 0) { z = 1; } else if (x == 0) { z = 2; } else { z = 3; } }",
      {5});
  EXPECT_EQ(global("y"), 10);
  EXPECT_EQ(global("z"), 3);
}

TEST_F(EmitterTest, PredicateGuardsTheClause) {
  ASSERT_EQ(load("BEGIN /arg0 == 1/ { x = 5; } BEGIN /arg0 != 1/ { y = 6; }", beginProbe()), "");
  fire({0});
  EXPECT_EQ(global("x"), 0);
  EXPECT_EQ(global("y"), 6);
  fire({1});
  EXPECT_EQ(global("x"), 5);
}

TEST_F(EmitterTest, ClausesRunInScriptOrder) {
  run("BEGIN { x = 1; } BEGIN { x = x * 10 + 2; } BEGIN { x = x * 10 + 3; }");
  EXPECT_EQ(global("x"), 123);
}

TEST_F(EmitterTest, NothingRunsInTheWrongActivityState) {
  ASSERT_EQ(load("BEGIN { x = 1; trace(1); }", beginProbe()), "");
  setState(Activity::Active);  // BEGIN expects Warmup
  fire();
  EXPECT_EQ(global("x"), 0);
  EXPECT_TRUE(records().empty());
}

// ---- records ---------------------------------------------------------------------------

TEST_F(EmitterTest, TraceWritesARecordWithTheEpid) {
  run("BEGIN { trace(42); trace((char)-1); trace(\"hi\"); trace(-5l); }");
  std::vector<Record> recs = records();
  ASSERT_EQ(recs.size(), 1u);
  const Record& r = recs[0];
  EXPECT_EQ(r.header.epid, 1u);
  EXPECT_LT(r.header.cpu, static_cast<uint32_t>(bpf::Map::possibleCpus()));
  EXPECT_EQ(r.data.size(), layout.clauses[0].dataSize);
  EXPECT_EQ(r.at<int32_t>(field(0, 0).offset), 42);
  EXPECT_EQ(r.at<int8_t>(field(0, 1).offset), -1);
  EXPECT_EQ(r.string(field(0, 2).offset, field(0, 2).size), "hi");
  EXPECT_EQ(r.at<int64_t>(field(0, 3).offset), -5);
}

TEST_F(EmitterTest, PrintfRecordsItsArguments) {
  run("BEGIN { x = 7; printf(\"%d %s %s\\n\", x * 6, execname, probefunc); }");
  std::vector<Record> recs = records();
  ASSERT_EQ(recs.size(), 1u);
  char comm[16] = {};
  prctl(PR_GET_NAME, comm);
  EXPECT_EQ(recs[0].at<int32_t>(field(0, 0, 0).offset), 42);
  EXPECT_EQ(recs[0].string(field(0, 0, 1).offset, field(0, 0, 1).size), comm);
  EXPECT_EQ(recs[0].string(field(0, 0, 2).offset, field(0, 0, 2).size), "");
}

TEST_F(EmitterTest, EachClauseWritesItsOwnRecord) {
  run("BEGIN { trace(1); } BEGIN { x = 2; } BEGIN { trace(3); }");
  std::vector<Record> recs = records();
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].header.epid, 1u);
  EXPECT_EQ(recs[0].at<int32_t>(field(0, 0).offset), 1);
  EXPECT_EQ(recs[1].header.epid, 3u);
  EXPECT_EQ(recs[1].at<int32_t>(field(2, 0).offset), 3);
}

TEST_F(EmitterTest, ActionMaskShowsWhichActionsRan) {
  ASSERT_EQ(load("BEGIN { if (arg0) { trace(1); } else { trace(2); } trace(3); }", beginProbe()),
            "");
  fire({0});
  fire({1});
  std::vector<Record> recs = records();
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].at<uint64_t>(0), 0b110u);  // else branch and the last trace
  EXPECT_EQ(recs[0].at<int32_t>(field(0, 1).offset), 2);
  EXPECT_EQ(recs[1].at<uint64_t>(0), 0b101u);
  EXPECT_EQ(recs[1].at<int32_t>(field(0, 0).offset), 1);
}

TEST_F(EmitterTest, ExitRecordsItsStatusAndStopsTracing) {
  ASSERT_EQ(load("BEGIN { trace(1); exit(3); }", beginProbe()), "");
  fire();
  EXPECT_EQ(state(), static_cast<uint64_t>(Activity::Draining));
  fire();  // no longer in Warmup: nothing happens
  std::vector<Record> recs = records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].at<int32_t>(field(0, 1).offset), 3);
}

TEST_F(EmitterTest, DivisionByZeroWritesAFaultRecordInstead) {
  run("BEGIN { trace(1); a = 1; z = 0; q = a / z; trace(2); after = 1; }");
  std::vector<Record> recs = records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].header.epid, 0u);
  ASSERT_GE(recs[0].data.size(), sizeof(ir::FaultRecord));
  ir::FaultRecord f = recs[0].fault();
  EXPECT_EQ(f.epid, 1u);
  EXPECT_EQ(f.fault, static_cast<uint32_t>(ir::Fault::DivZero));
  EXPECT_EQ(global("after"), 0);  // the rest of the clause did not run
  EXPECT_EQ(counterTotals().errors, 1u);
}

TEST_F(EmitterTest, ModuloByZeroFaultsToo) {
  run("BEGIN { z = 0; q = 5 % z; }");
  std::vector<Record> recs = records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].header.epid, 0u);
  EXPECT_EQ(recs[0].fault().fault, static_cast<uint32_t>(ir::Fault::DivZero));
}

TEST_F(EmitterTest, AFaultAbandonsOnlyItsClause) {
  run("BEGIN { z = 0; q = 1 / z; } BEGIN { trace(7); }");
  std::vector<Record> recs = records();
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].header.epid, 0u);
  EXPECT_EQ(recs[0].fault().epid, 1u);
  EXPECT_EQ(recs[1].header.epid, 2u);
  EXPECT_EQ(recs[1].at<int32_t>(field(1, 0).offset), 7);
}

// As in DTrace, every statement of the clause counts as an action.
TEST_F(EmitterTest, FaultInAnActionNamesTheStatement) {
  run("BEGIN { z = 0; trace(1); trace(5 / z); }");
  std::vector<Record> recs = records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].fault().actionIndex, 3u);
}

// ---- aggregations ------------------------------------------------------------------

TEST_F(EmitterTest, CountAndSum) {
  ASSERT_EQ(load("BEGIN { @c = count(); @s = sum(arg0); }", beginProbe()), "");
  fire({5});
  fire({static_cast<uint64_t>(-2)});
  fire({10});
  EXPECT_EQ(aggregation(0, zeroKey(0))[0], 3);
  EXPECT_EQ(aggregation(1, zeroKey(1))[0], 13);
}

TEST_F(EmitterTest, MinAndMaxAreSigned) {
  ASSERT_EQ(load("BEGIN { @mn = min(arg0); @mx = max(arg0); }", beginProbe()), "");
  for (int64_t v : {5, -2, 9, 0}) fire({static_cast<uint64_t>(v)});
  EXPECT_EQ(aggregation(0, zeroKey(0))[0], -2);
  EXPECT_EQ(aggregation(1, zeroKey(1))[0], 9);
}

TEST_F(EmitterTest, MinAndMaxOfUnsignedValues) {
  ASSERT_EQ(load("BEGIN { u = (unsigned long)arg0; @mn = min(u); @mx = max(u); }", beginProbe()),
            "");
  for (int64_t v : {5, -1, 3}) fire({static_cast<uint64_t>(v)});
  EXPECT_EQ(aggregation(0, zeroKey(0))[0], 3);
  EXPECT_EQ(aggregation(1, zeroKey(1))[0], -1);  // ULONG_MAX
}

TEST_F(EmitterTest, AvgKeepsTotalAndCount) {
  ASSERT_EQ(load("BEGIN { @a = avg(arg0); }", beginProbe()), "");
  for (int v : {2, 4, 9}) fire({static_cast<uint64_t>(v)});
  EXPECT_EQ(aggregation(0, zeroKey(0)), (std::vector<int64_t>{3, 15}));
}

TEST_F(EmitterTest, StddevKeepsCountSumAndWideSumOfSquares) {
  ASSERT_EQ(load("BEGIN { @s = stddev(arg0); }", beginProbe()), "");
  const int64_t big = int64_t{3} << 40;  // its square needs more than 64 bits
  for (int64_t v : {big, -big, int64_t{5}}) fire({static_cast<uint64_t>(v)});
  const unsigned __int128 squares = (unsigned __int128)(uint64_t)big * (uint64_t)big * 2 + 25;
  EXPECT_EQ(aggregation(0, zeroKey(0)),
            (std::vector<int64_t>{3, 5, static_cast<int64_t>(static_cast<uint64_t>(squares)),
                                  static_cast<int64_t>(static_cast<uint64_t>(squares >> 64))}));
}

// The buckets the kernel fills are the ones the consumer's ir:: functions
// name, for values across every range the distributions have.
std::vector<int64_t> distributionProbeValues() {
  std::vector<int64_t> values = {0,
                                 1,
                                 -1,
                                 2,
                                 3,
                                 -3,
                                 7,
                                 8,
                                 9,
                                 10,
                                 11,
                                 99,
                                 100,
                                 101,
                                 1000,
                                 1234,
                                 -1000,
                                 5000,
                                 99999,
                                 100000,
                                 INT64_MAX,
                                 INT64_MIN,
                                 int64_t{1} << 62,
                                 -(int64_t{1} << 62)};
  return values;
}

TEST_F(EmitterTest, QuantizeFillsTheBucketOfEachValue) {
  ASSERT_EQ(load("BEGIN { @q = quantize(arg0); }", beginProbe()), "");
  std::vector<int64_t> expected(ir::kQuantizeBuckets, 0);
  for (int64_t v : distributionProbeValues()) {
    fire({static_cast<uint64_t>(v)});
    expected[ir::quantizeBucket(v)]++;
  }
  EXPECT_EQ(aggregation(0, zeroKey(0)), expected);
}

TEST_F(EmitterTest, QuantizeIncrementAddsItsWeight) {
  ASSERT_EQ(load("BEGIN { @q = quantize(arg0, arg1); }", beginProbe()), "");
  fire({4, 10});
  fire({4, static_cast<uint64_t>(-3)});
  std::vector<int64_t> words = aggregation(0, zeroKey(0));
  ASSERT_EQ(words.size(), ir::kQuantizeBuckets);
  EXPECT_EQ(words[ir::quantizeBucket(4)], 7);
}

TEST_F(EmitterTest, LquantizeFillsTheBucketOfEachValue) {
  ASSERT_EQ(load("BEGIN { @l = lquantize(arg0, -100, 1000, 7); }", beginProbe()), "");
  const ir::AggParams& p = layout.aggregations.at(0).params;
  std::vector<int64_t> expected(p.levels + 2, 0);
  for (int64_t v : distributionProbeValues()) {
    fire({static_cast<uint64_t>(v)});
    expected[ir::lquantizeBucket(p, v)]++;
  }
  EXPECT_EQ(aggregation(0, zeroKey(0)), expected);
}

TEST_F(EmitterTest, LlquantizeFillsTheBucketOfEachValue) {
  for (const char* args : {"10, 0, 6, 20", "10, 2, 5, 10", "2, 0, 10, 2", "10, 0, 3, 1000",
                           "6, 0, 3, 54", "10, 0, 19, 10", "2, 0, 63, 2"}) {
    Harness t;
    ASSERT_EQ(t.load(std::string("BEGIN { @l = llquantize(arg0, ") + args + "); }", beginProbe()),
              "")
        << args;
    const ir::Aggregation& agg = t.layout.aggregations.at(0);
    std::vector<int64_t> expected(agg.dataWords(), 0);
    for (int64_t v : distributionProbeValues()) {
      t.fire({static_cast<uint64_t>(v)});
      expected[ir::llquantizeBucket(agg.params, v)]++;
    }
    EXPECT_EQ(t.aggregation(0, t.zeroKey(0)), expected) << args;
  }
}

TEST_F(EmitterTest, MapsReachedThroughArraysOfMapsHoldTheirOwnValues) {
  for (bool shared : {false, true}) {
    Harness h;
    h.shareMaps = shared;
    h.run(
        "BEGIN { @a = count(); @b = sum(5); @c[7] = count(); @c[7] = count();"
        "  x[1] = 5; self->y = 7; z = x[1] + self->y; x[1] = 0; w = x[1]; }");
    EXPECT_EQ(h.arrays.size(), shared ? 2u : 0u);
    EXPECT_EQ(h.aggregation(0, h.zeroKey(0)), std::vector<int64_t>{1});
    EXPECT_EQ(h.aggregation(1, h.zeroKey(1)), std::vector<int64_t>{5});
    Bytes seven = h.zeroKey(2);
    seven[0] = 7;
    EXPECT_EQ(h.aggregation(2, seven), std::vector<int64_t>{2});
    EXPECT_EQ(h.global("z"), 12);
    EXPECT_EQ(h.global("w"), 0);
    EXPECT_EQ(h.counterTotals().dynamicDrops, 0u);
    EXPECT_EQ(h.counterTotals().aggregationDrops, 0u);
  }
}

TEST_F(EmitterTest, AggregationKeysAreLaidOutByField) {
  ASSERT_EQ(load("BEGIN { @k[execname, arg0, (char)arg1] = count(); }", beginProbe()), "");
  fire({7, 65});
  fire({7, 65});
  fire({8, 65});
  const ir::Aggregation& agg = layout.aggregations.at(0);
  ASSERT_EQ(agg.keys.size(), 3u);
  char comm[16] = {};
  prctl(PR_GET_NAME, comm);
  Bytes key(agg.keySize, 0);
  std::memcpy(key.data() + agg.keys[0].offset, comm, std::strlen(comm));
  int64_t seven = 7;
  std::memcpy(key.data() + agg.keys[1].offset, &seven, 8);
  key[agg.keys[2].offset] = 65;
  EXPECT_EQ(aggregation(0, key)[0], 2);
  int64_t eight = 8;
  std::memcpy(key.data() + agg.keys[1].offset, &eight, 8);
  EXPECT_EQ(aggregation(0, key)[0], 1);
}

TEST_F(EmitterTest, AggregationWithAStringLiteralKey) {
  ASSERT_EQ(load("BEGIN { @[\"ab\"] = sum(4); }", beginProbe()), "");
  fire();
  Bytes key(layout.aggregations.at(0).keySize, 0);
  key[0] = 'a';
  key[1] = 'b';
  EXPECT_EQ(aggregation(0, key)[0], 4);
}

TEST_F(EmitterTest, AggregationsUnderIf) {
  ASSERT_EQ(load("BEGIN { if (arg0) { @y = count(); } else { @n = count(); } }", beginProbe()), "");
  fire({1});
  fire({1});
  fire({0});
  EXPECT_EQ(aggregation(0, zeroKey(0))[0], 2);
  EXPECT_EQ(aggregation(1, zeroKey(1))[0], 1);
}

// The work loop (driver::WorkLoop) fires BEGIN and END with no arguments
// (BPF_PROG_RUN with an empty context), but the kernel refuses to run a
// raw-tracepoint program whose context reads reach past ctx_size_in:
// `BEGIN { trace(arg0); }` fails with EINVAL. DTrace's BEGIN sees arg0..arg9 as 0.
TEST_F(EmitterTest, BeginReadingArg0RunsWithSixZeroArguments) {
  ASSERT_EQ(load("BEGIN { x = arg0 + 1; }", beginProbe()), "");
  setState(Activity::Warmup);
  const std::array<uint64_t, 6> args{};  // as the session runs BEGIN
  auto r = prog->run(args);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(global("x"), 1);
}

// ---- a syscall probe, attached ------------------------------------------------------

TEST_F(EmitterTest, SyscallEntryProbeSeesTheCallingProcess) {
  Harness t;
  t.macros.named["target"] = std::to_string(getpid());
  ASSERT_EQ(t.load("syscall::getppid:entry /pid == $target/ { x = pid; n++; @c = count(); }",
                   syscallProbe(false), Activity::Active),
            "");
  t.setState(Activity::Active);
  auto id = bpf::tracepointId("syscalls", "sys_enter_getppid");
  ASSERT_TRUE(id.ok()) << id.error().message;
  {
    auto link = bpf::attachTracepoint(t.prog->fd(), *id);
    ASSERT_TRUE(link.ok()) << link.error().message;
    for (int i = 0; i < 3; i++) syscall(SYS_getppid);
  }
  EXPECT_EQ(t.global("x"), getpid());
  EXPECT_EQ(t.global("n"), 3);
  EXPECT_EQ(t.aggregation(0, t.zeroKey(0))[0], 3);
}

TEST_F(EmitterTest, SyscallReturnProbeSeesTheReturnValue) {
  Harness t;
  t.macros.named["target"] = std::to_string(getpid());
  ASSERT_EQ(t.load("syscall::getppid:return /pid == $target/ { r = arg0; e = errno; }",
                   syscallProbe(true), Activity::Active),
            "");
  t.setState(Activity::Active);
  auto id = bpf::tracepointId("syscalls", "sys_exit_getppid");
  ASSERT_TRUE(id.ok()) << id.error().message;
  {
    auto link = bpf::attachTracepoint(t.prog->fd(), *id);
    ASSERT_TRUE(link.ok()) << link.error().message;
    syscall(SYS_getppid);
  }
  EXPECT_EQ(t.global("r"), getppid());
  EXPECT_EQ(t.global("e"), 0);
}

}  // namespace
}  // namespace dtrace::codegen
