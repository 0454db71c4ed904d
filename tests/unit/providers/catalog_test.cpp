#include "providers/catalog.h"

#include <gtest/gtest.h>

#include "providers/description.h"
#include "providers/fbt_provider.h"

namespace dtrace::providers {
namespace {

ast::ProbeSpec spec(const char* text) {
  Result<ast::ProbeSpec> r = splitProbeDescription(text);
  EXPECT_TRUE(r.ok());
  return *r;
}

std::vector<const Probe*> matchOk(ProbeCatalog& catalog, const char* text) {
  Result<std::vector<const Probe*>> r = catalog.match(spec(text));
  EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : std::vector<const Probe*>{};
}

bool haveSyscallTracepoints() {
  ProbeCatalog c;
  return !matchOk(c, "syscall::read:entry").empty();
}

TEST(ProbeCatalog, DtraceProbesHaveIdsOneToThree) {
  ProbeCatalog catalog;
  std::vector<const Probe*> m = matchOk(catalog, "dtrace:::");
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0]->id, 1u);
  EXPECT_EQ(m[0]->name, "BEGIN");
  EXPECT_EQ(m[1]->id, 2u);
  EXPECT_EQ(m[1]->name, "END");
  EXPECT_EQ(m[2]->id, 3u);
  EXPECT_EQ(m[2]->name, "ERROR");
  EXPECT_EQ(m[0]->provider, "dtrace");
  EXPECT_EQ(m[0]->progType, BPF_PROG_TYPE_RAW_TRACEPOINT);
  EXPECT_EQ(m[0]->attachKind, AttachKind::Consumer);
  EXPECT_EQ(catalog.byId(2), m[1]);
}

TEST(ProbeCatalog, BeginAloneDoesNotEnumerateOtherProviders) {
  ProbeCatalog catalog;
  std::vector<const Probe*> m = matchOk(catalog, "BEGIN");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0]->id, 1u);
  EXPECT_FALSE(catalog.enumerated("syscall"));
  EXPECT_FALSE(catalog.enumerated("profile"));
  matchOk(catalog, "END");
  matchOk(catalog, "dtrace:::ERROR");
  EXPECT_FALSE(catalog.enumerated("syscall"));
}

TEST(ProbeCatalog, LiteralProviderEnumeratesNoProviderAfterIt) {
  ProbeCatalog catalog;
  matchOk(catalog, "profile:::tick-1s");
  EXPECT_TRUE(catalog.enumerated("profile"));
  EXPECT_TRUE(catalog.enumerated("dtrace"));  // before it: IDs stay stable
  EXPECT_FALSE(catalog.enumerated("syscall"));
}

TEST(ProbeCatalog, BeginNeverReadsTheSyscallList) {
  ProbeCatalog catalog;
  EXPECT_EQ(matchOk(catalog, "BEGIN").at(0)->id, 1u);
  EXPECT_FALSE(catalog.enumerated("syscall"));
}

TEST(ProbeCatalog, IdsDoNotDependOnWhatWasAskedFirst) {
  if (!haveSyscallTracepoints()) GTEST_SKIP() << "no syscall tracepoints readable";
  ProbeCatalog bySyscall;
  uint32_t id = matchOk(bySyscall, "syscall::read:entry").at(0)->id;
  ProbeCatalog byAll;
  const Probe* same = nullptr;
  for (const Probe* p : byAll.all()) {
    if (p->provider == "syscall" && p->function == "read" && p->name == "entry") same = p;
  }
  ASSERT_NE(same, nullptr);
  EXPECT_EQ(same->id, id);
}

TEST(ProbeCatalog, SyscallMatching) {
  if (!haveSyscallTracepoints()) GTEST_SKIP() << "no syscall tracepoints readable";
  ProbeCatalog catalog;
  std::vector<const Probe*> one = matchOk(catalog, "syscall::read:entry");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0]->provider, "syscall");
  EXPECT_EQ(one[0]->module, "");
  EXPECT_EQ(one[0]->function, "read");
  EXPECT_EQ(one[0]->name, "entry");
  EXPECT_EQ(one[0]->tpCategory, "syscalls");
  EXPECT_EQ(one[0]->tpEvent, "sys_enter_read");
  EXPECT_EQ(one[0]->progType, BPF_PROG_TYPE_RAW_TRACEPOINT);
  EXPECT_EQ(one[0]->syscallNumber, 0);
  EXPECT_GT(one[0]->id, 3u);
  EXPECT_FALSE(one[0]->argsDescribed);  // listing does not read format files

  std::vector<const Probe*> several = matchOk(catalog, "syscall::read*:");
  EXPECT_GE(several.size(), 4u);  // read, readv, readlink, readahead... entry and return
  for (const Probe* p : several) EXPECT_EQ(p->function.rfind("read", 0), 0u) << p->function;

  std::vector<const Probe*> ret = matchOk(catalog, "syscall::read:return");
  ASSERT_EQ(ret.size(), 1u);
  EXPECT_EQ(ret[0]->tpEvent, "sys_exit_read");
  EXPECT_EQ(ret[0]->id, one[0]->id + 1);

  // Same probe object every time.
  EXPECT_EQ(matchOk(catalog, "syscall::read:entry")[0], one[0]);
  EXPECT_EQ(catalog.byId(one[0]->id), one[0]);

  EXPECT_TRUE(matchOk(catalog, "syscall::nosuchcall:entry").empty());
  EXPECT_TRUE(matchOk(catalog, "syscall:vmlinux:read:entry").empty());
}

TEST(ProbeCatalog, PartialDescriptionsMatchAcrossProviders) {
  if (!haveSyscallTracepoints()) GTEST_SKIP() << "no syscall tracepoints readable";
  ProbeCatalog catalog;
  std::vector<const Probe*> m = matchOk(catalog, "read:entry");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0]->provider, "syscall");
  EXPECT_FALSE(catalog.enumerated("fbt"));  // after syscall: never needed
}

TEST(ProbeCatalog, SyscallArgumentsAreDescribedLazily) {
  if (!haveSyscallTracepoints()) GTEST_SKIP() << "no syscall tracepoints readable";
  ProbeCatalog catalog;
  const Probe* entry = matchOk(catalog, "syscall::read:entry").at(0);
  ASSERT_TRUE(catalog.describeArgs(*entry).ok());
  ASSERT_TRUE(entry->argsDescribed);
  ASSERT_EQ(entry->args.size(), 3u);
  EXPECT_EQ(entry->args[0].typeName, "unsigned int");
  EXPECT_EQ(entry->args[0].kind, ArgSource::Kind::SyscallArg);
  EXPECT_EQ(entry->args[0].offset, 112);  // pt_regs.di
  EXPECT_EQ(entry->args[0].size, 4);
  EXPECT_EQ(entry->args[1].offset, 104);  // pt_regs.si
  EXPECT_EQ(entry->args[1].typeName, "char *");
  EXPECT_EQ(entry->args[2].typeName, "size_t");
  const Probe* ret = matchOk(catalog, "syscall::read:return").at(0);
  ASSERT_TRUE(catalog.describeArgs(*ret).ok());
  ASSERT_EQ(ret->args.size(), 2u);
  EXPECT_EQ(ret->args[0].kind, ArgSource::Kind::SyscallReturn);
  EXPECT_EQ(ret->args[0].offset, 8);  // sys_exit raw tracepoint: (regs, ret)
}

TEST(ProbeCatalog, SyscallProbesUseTheTableNames) {
  if (!haveSyscallTracepoints()) GTEST_SKIP() << "no syscall tracepoints readable";
  ProbeCatalog catalog;
  // tracefs calls these newfstat and newuname.
  std::vector<const Probe*> fstat = matchOk(catalog, "syscall::fstat:entry");
  ASSERT_EQ(fstat.size(), 1u);
  EXPECT_EQ(fstat[0]->tpEvent, "sys_enter_newfstat");
  EXPECT_EQ(fstat[0]->syscallNumber, 5);
  std::vector<const Probe*> uname = matchOk(catalog, "syscall::uname:return");
  ASSERT_EQ(uname.size(), 1u);
  EXPECT_EQ(uname[0]->tpEvent, "sys_exit_newuname");
  EXPECT_EQ(uname[0]->syscallNumber, 63);
  EXPECT_TRUE(matchOk(catalog, "syscall::newfstat:entry").empty());
  // Every listed call has a number and its tracefs event.
  for (const Probe* p : matchOk(catalog, "syscall:::")) {
    EXPECT_GE(p->syscallNumber, 0) << p->function;
    EXPECT_FALSE(p->tpEvent.empty()) << p->function;
  }
}

TEST(ProbeCatalog, ProfileDefaultsAndOnDemandProbes) {
  ProbeCatalog catalog;
  std::vector<const Probe*> listed = matchOk(catalog, "profile:::");
  ASSERT_EQ(listed.size(), 13u);
  EXPECT_EQ(listed[0]->name, "profile-97");
  EXPECT_EQ(listed[12]->name, "tick-5000");

  std::vector<const Probe*> made = matchOk(catalog, "profile:::tick-10ms");
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(made[0]->periodNs, 10000000u);
  EXPECT_FALSE(made[0]->perCpu);
  EXPECT_EQ(made[0]->id, listed.back()->id + 1);
  EXPECT_EQ(matchOk(catalog, "tick-10ms")[0], made[0]);  // made once

  std::vector<const Probe*> prof = matchOk(catalog, "profile-1001hz");
  ASSERT_EQ(prof.size(), 1u);
  EXPECT_TRUE(prof[0]->perCpu);
  EXPECT_EQ(prof[0]->progType, BPF_PROG_TYPE_PERF_EVENT);

  // A listed default is found, not made again.
  std::vector<const Probe*> t1 = matchOk(catalog, "tick-1");
  ASSERT_EQ(t1.size(), 1u);
  EXPECT_EQ(t1[0], listed[7]);

  // Bad units and too-fast rates name no probe, as in DTrace.
  EXPECT_TRUE(matchOk(catalog, "profile:::tick-1foo").empty());
  EXPECT_TRUE(matchOk(catalog, "profile:::profile-100000").empty());
  EXPECT_TRUE(matchOk(catalog, "profile::foo:tick-1s").empty());

  // Globs match only what exists.
  EXPECT_EQ(matchOk(catalog, "profile:::tick-*").size(), 7u);  // 6 defaults + tick-10ms
}

TEST(ProbeCatalog, FbtFailsWithOneClearLine) {
  ProbeCatalog catalog;
  Result<std::vector<const Probe*>> r = catalog.match(spec("fbt::vfs_read:entry"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, kFbtUnavailable);
  EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
  // A description that does not name fbt is not affected.
  EXPECT_TRUE(catalog.match(spec("BEGIN")).ok());
}

TEST(ProbeCatalog, AllListsEveryProviderInIdOrder) {
  ProbeCatalog catalog;
  std::vector<const Probe*> all = catalog.all();
  ASSERT_GE(all.size(), 16u);
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i]->id, i + 1);
  EXPECT_EQ(all[3]->name, "profile-97");
  EXPECT_EQ(catalog.byId(static_cast<uint32_t>(all.size()) + 1), nullptr);
  EXPECT_EQ(catalog.byId(0), nullptr);
}

// A family that records which provider patterns listing asked it for.
class RecordingFamily final : public ProviderFamily {
 public:
  explicit RecordingFamily(std::vector<std::string>& asked) : asked_(asked) {}
  Result<void> provide(ProbeCatalog&, const ast::ProbeSpec&) override { return {}; }
  void provideRunning(ProbeCatalog&, const std::string& pattern) override {
    asked_.push_back(pattern);
  }

 private:
  std::vector<std::string>& asked_;
};

// Only dtrace -l brings in every running process's providers: tracing
// python*::: must not see pythonPID next to the path-wide python.
TEST(ProbeCatalog, RunningProcessesAreProvidedOnlyWhenListing) {
  std::vector<std::string> asked;
  ProbeCatalog catalog{ProbeCatalog::Empty{}};
  catalog.addFamily(std::make_unique<RecordingFamily>(asked));
  matchOk(catalog, "python*:::line");
  catalog.all();
  EXPECT_TRUE(asked.empty());

  catalog.setListingRunningProcesses(true);
  matchOk(catalog, "python*:::line");
  matchOk(catalog, ":libc.so.6::");
  catalog.all();
  EXPECT_EQ(asked, (std::vector<std::string>{"python*", "*", "*"}));
}

}  // namespace
}  // namespace dtrace::providers
