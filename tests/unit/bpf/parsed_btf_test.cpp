// The kernel's BTF read through bpf::Btf: the lookups types/ makes.
#include "bpf/parsed_btf.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <optional>

namespace dtrace::bpf {
namespace {

class ParsedBtfTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) GTEST_SKIP() << "no kernel BTF";
    auto loaded = Btf::loadVmlinux();
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    btf_.emplace(std::move(*loaded));
  }
  std::optional<Btf> btf_;
};

TEST_F(ParsedBtfTest, FindsAStructAndItsMembers) {
  const std::optional<uint32_t> id = btf_->find("task_struct", BtfKind::Struct);
  ASSERT_TRUE(id);
  const std::optional<BtfType> task = btf_->type(*id);
  ASSERT_TRUE(task);
  EXPECT_EQ(task->kind, BtfKind::Struct);
  EXPECT_EQ(task->name, "task_struct");
  EXPECT_GT(task->size, 0u);
  const std::vector<BtfMember> members = btf_->members(*task);
  EXPECT_EQ(members.size(), task->vlen);
  auto pid = std::find_if(members.begin(), members.end(),
                          [](const BtfMember& m) { return m.name == "pid"; });
  ASSERT_NE(pid, members.end());
  EXPECT_EQ(pid->bitOffset % 8, 0u);
  const std::optional<BtfType> pidType = btf_->type(pid->type);
  ASSERT_TRUE(pidType);
  EXPECT_EQ(pidType->kind, BtfKind::Typedef);  // pid_t
  EXPECT_EQ(pidType->name, "pid_t");
}

TEST_F(ParsedBtfTest, IntegersCarryTheirSign) {
  const std::optional<uint32_t> id = btf_->find("int", BtfKind::Int);
  ASSERT_TRUE(id);
  EXPECT_TRUE(btf_->type(*id)->isSigned);
  const std::optional<uint32_t> unsignedId = btf_->find("unsigned int", BtfKind::Int);
  ASSERT_TRUE(unsignedId);
  EXPECT_FALSE(btf_->type(*unsignedId)->isSigned);
  EXPECT_EQ(btf_->type(*unsignedId)->size, 4u);
}

TEST_F(ParsedBtfTest, EnumeratorsAndPrototypes) {
  const std::optional<uint32_t> id = btf_->find("bpf_map_type", BtfKind::Enum);
  ASSERT_TRUE(id);
  const std::vector<BtfEnumerator> values = btf_->enumerators(*btf_->type(*id));
  ASSERT_FALSE(values.empty());
  EXPECT_EQ(values[0].name, "BPF_MAP_TYPE_UNSPEC");
  EXPECT_EQ(values[0].value, 0);

  const std::optional<uint32_t> trace = btf_->find("btf_trace_sched_switch", BtfKind::Typedef);
  ASSERT_TRUE(trace);
  const std::optional<BtfType> ptr = btf_->type(btf_->type(*trace)->type);
  ASSERT_TRUE(ptr && ptr->kind == BtfKind::Ptr);
  const std::optional<BtfType> proto = btf_->type(ptr->type);
  ASSERT_TRUE(proto && proto->kind == BtfKind::FuncProto);
  const std::vector<BtfParam> params = btf_->params(*proto);
  EXPECT_EQ(params.size(), proto->vlen);
  EXPECT_GE(params.size(), 3u);  // void *, bool preempt, prev, next...
}

TEST_F(ParsedBtfTest, MissingNamesAndIds) {
  EXPECT_FALSE(btf_->find("no_such_struct_in_any_kernel", BtfKind::Struct));
  EXPECT_FALSE(btf_->type(btf_->typeCount()));
  EXPECT_GT(btf_->typeCount(), 1000u);
}

}  // namespace
}  // namespace dtrace::bpf
