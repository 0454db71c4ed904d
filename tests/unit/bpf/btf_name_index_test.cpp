// The kernel's BTF read in place (bpf::BtfNameIndex) agrees with libbpf's
// full parse (bpf::Btf) on every lookup it answers.
#include "bpf/btf_name_index.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <optional>

#include "bpf/parsed_btf.h"

namespace dtrace::bpf {
namespace {

class BtfNameIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) GTEST_SKIP() << "no kernel BTF";
    auto parsed = Btf::loadVmlinux();
    ASSERT_TRUE(parsed.ok()) << parsed.error().message;
    parsed_.emplace(std::move(*parsed));
    auto index = BtfNameIndex::openVmlinux();
    ASSERT_TRUE(index.ok()) << index.error().message;
    index_.emplace(std::move(*index));
  }
  // The bit offset of a direct member, as the full parse has it.
  std::optional<uint32_t> parsedMember(uint32_t id, std::string_view name) {
    for (const BtfMember& m : parsed_->members(*parsed_->type(id))) {
      if (m.name == name) return m.bitOffset;
    }
    return std::nullopt;
  }
  std::optional<Btf> parsed_;
  std::optional<BtfNameIndex> index_;
};

TEST_F(BtfNameIndexTest, FindsTheSameIdsAsTheFullParse) {
  for (auto [name, kind] :
       {std::pair{"task_struct", BtfKind::Struct}, std::pair{"pt_regs", BtfKind::Struct},
        std::pair{"sk_buff", BtfKind::Struct}, std::pair{"pid_t", BtfKind::Typedef},
        std::pair{"bpf_rdonly_cast", BtfKind::Func}}) {
    const std::optional<uint32_t> id = index_->find(name, kind);
    ASSERT_TRUE(id) << name;
    EXPECT_EQ(id, parsed_->find(name, kind)) << name;
  }
  EXPECT_FALSE(index_->find("task_struct", BtfKind::Union));
  EXPECT_FALSE(index_->find("task_struc", BtfKind::Struct));  // a prefix is not a name
  EXPECT_FALSE(index_->find("no_such_type_anywhere", BtfKind::Struct));
}

TEST_F(BtfNameIndexTest, MemberOffsetsMatchTheFullParse) {
  const uint32_t task = *index_->find("task_struct", BtfKind::Struct);
  for (const char* member : {"pid", "tgid", "comm", "real_parent", "mm", "thread_info"}) {
    const std::optional<uint32_t> bits = index_->memberBitOffset(task, member);
    ASSERT_TRUE(bits) << member;
    EXPECT_EQ(bits, parsedMember(task, member)) << member;
  }
  // A struct with bit fields, whose members' offsets carry their sizes (kflag).
  const uint32_t skb = *index_->find("sk_buff", BtfKind::Struct);
  EXPECT_EQ(index_->memberBitOffset(skb, "len"), parsedMember(skb, "len"));
  // Inside an anonymous union: left to the full parse.
  EXPECT_FALSE(index_->memberBitOffset(skb, "protocol"));
  EXPECT_FALSE(index_->memberBitOffset(task, "no_such_member"));
}

}  // namespace
}  // namespace dtrace::bpf
