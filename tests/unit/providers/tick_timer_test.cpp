#include "providers/tick_timer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <thread>
#include <vector>

namespace dtrace::providers {
namespace {

TEST(TickTimer, EachSlotHasItsOwnMarker) {
  std::set<const void*> markers;
  for (int i = 0; i < kTickSlots; ++i) markers.insert(tickMarker(i));
  EXPECT_EQ(markers.size(), static_cast<size_t>(kTickSlots));
}

TEST(TickTimer, SlotsRunOutAndComeBack) {
  std::vector<int> slots;
  for (int i = 0; i < kTickSlots; ++i) {
    Result<int> s = claimTickSlot();
    ASSERT_TRUE(s.ok());
    slots.push_back(*s);
  }
  EXPECT_FALSE(claimTickSlot().ok());
  for (int s : slots) releaseTickSlot(s);
  Result<int> again = claimTickSlot();
  ASSERT_TRUE(again.ok());
  releaseTickSlot(*again);
}

TEST(TickTimer, DroppingTheLinkStopsTheThreadAndFreesTheSlot) {
  for (int i = 0; i < kTickSlots + 8; ++i) {
    Result<int> slot = claimTickSlot();
    // Earlier threads free their slots as soon as they see their link gone.
    for (int tries = 0; !slot.ok() && tries < 100; ++tries) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      slot = claimTickSlot();
    }
    ASSERT_TRUE(slot.ok()) << i;
    Result<bpf::Link> link = startTickTimer(*slot, 200000);
    ASSERT_TRUE(link.ok()) << link.error().message;
  }
  // The last threads may still be on their way out; they all get there.
  for (int tries = 0; tries < 100; ++tries) {
    std::vector<int> slots;
    while (true) {
      Result<int> s = claimTickSlot();
      if (!s.ok()) break;
      slots.push_back(*s);
    }
    for (int s : slots) releaseTickSlot(s);
    if (slots.size() == static_cast<size_t>(kTickSlots)) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  FAIL() << "tick slots were not freed";
}

}  // namespace
}  // namespace dtrace::providers
