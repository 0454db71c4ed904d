// Which maps programs reach aggregations and dynamic variables through:
// their own while a program stays within the kernel's limit of maps,
// arrays of maps of one shape beyond it.
#include "codegen/map_sharing.h"

#include <gtest/gtest.h>

#include <set>

namespace dtrace::codegen {
namespace {

std::vector<uint32_t> ids(uint32_t first, uint32_t count) {
  std::vector<uint32_t> v;
  for (uint32_t i = 0; i < count; i++) v.push_back(first + i);
  return v;
}

// The maps `program` names: direct ones, and the arrays of shared ones.
size_t mapsNamed(const MapSharing& s, const MapUse& program) {
  size_t direct = 0;
  std::set<int32_t> arrays;
  for (uint32_t id : program.aggregations) {
    if (s.aggregations.at(id).shared()) {
      arrays.insert(s.aggregations[id].array);
    } else {
      direct++;
    }
  }
  for (uint32_t id : program.dynamics) {
    if (s.dynamics.at(id).shared()) {
      arrays.insert(s.dynamics[id].array);
    } else {
      direct++;
    }
  }
  return direct + arrays.size();
}

TEST(MapSharingTest, ProgramsWithinTheLimitNameEveryMapDirectly) {
  const std::vector<MapShape> aggs(20, MapShape{8, 16});
  const std::vector<MapShape> dyns(30, MapShape{8, 8});
  const MapSharing s = shareMaps(aggs, dyns, {{ids(0, 20), ids(0, 30)}});
  EXPECT_TRUE(s.arrays.empty());
  for (const MapPlace& p : s.aggregations) EXPECT_FALSE(p.shared());
  for (const MapPlace& p : s.dynamics) EXPECT_FALSE(p.shared());
}

TEST(MapSharingTest, OneShapeBeyondTheLimitSharesOneArrayInIdOrder) {
  const std::vector<MapShape> aggs(100, MapShape{8, 16});
  const MapSharing s = shareMaps(aggs, {}, {{ids(0, 100), {}}});
  ASSERT_EQ(s.arrays.size(), 1u);
  EXPECT_EQ(s.arrays[0].kind, MapKind::Aggregation);
  EXPECT_EQ(s.arrays[0].shape, (MapShape{8, 16}));
  EXPECT_EQ(s.arrays[0].members, ids(0, 100));
  for (uint32_t i = 0; i < 100; i++) {
    EXPECT_EQ(s.aggregations[i].array, 0);
    EXPECT_EQ(s.aggregations[i].slot, i);
  }
}

TEST(MapSharingTest, AggregationsAndVariablesShareByKindAndShape) {
  std::vector<MapShape> aggs, dyns;
  for (int i = 0; i < 40; i++) aggs.push_back(i % 2 ? MapShape{8, 16} : MapShape{24, 40});
  for (int i = 0; i < 40; i++) dyns.push_back(i % 2 ? MapShape{8, 8} : MapShape{16, 264});
  const MapUse all{ids(0, 40), ids(0, 40)};
  const MapSharing s = shareMaps(aggs, dyns, {all});
  ASSERT_EQ(s.arrays.size(), 4u);
  for (uint32_t i = 0; i < 40; i++) {
    const MapArray& a = s.arrays.at(s.aggregations[i].array);
    EXPECT_EQ(a.kind, MapKind::Aggregation);
    EXPECT_EQ(a.shape, aggs[i]);  // few shapes: none is padded
    EXPECT_EQ(a.members.at(s.aggregations[i].slot), i);
    const MapArray& d = s.arrays.at(s.dynamics[i].array);
    EXPECT_EQ(d.kind, MapKind::Dynamic);
    EXPECT_EQ(d.shape, dyns[i]);
    EXPECT_EQ(d.members.at(s.dynamics[i].slot), i);
  }
  EXPECT_EQ(mapsNamed(s, all), 4u);
}

TEST(MapSharingTest, OnlyWhatAProgramOverTheLimitUsesIsShared) {
  // Two programs of 40 variables each fit on their own; a third uses 60.
  const std::vector<MapShape> dyns(200, MapShape{8, 8});
  const MapUse first{{}, ids(0, 40)}, second{{}, ids(40, 40)}, third{{}, ids(100, 60)};
  const MapSharing s = shareMaps({}, dyns, {first, second, third});
  for (uint32_t i = 0; i < 80; i++) EXPECT_FALSE(s.dynamics[i].shared()) << i;
  for (uint32_t i = 100; i < 160; i++) EXPECT_TRUE(s.dynamics[i].shared()) << i;
  for (uint32_t i = 160; i < 200; i++) EXPECT_FALSE(s.dynamics[i].shared()) << i;
  EXPECT_EQ(mapsNamed(s, third), 1u);
}

TEST(MapSharingTest, ProgramsThatShareSomeMembersAllEndWithinTheLimit) {
  // Programs overlapping in what they use, each over the budget: every
  // one of them ends within it, with a smaller budget too.
  const std::vector<MapShape> dyns(300, MapShape{8, 8});
  const MapUse first{{}, ids(0, 60)};
  MapUse second{{}, ids(30, 30)};
  second.add({{}, ids(100, 50)});
  MapUse third{{}, ids(0, 20)};
  third.add({{}, ids(200, 55)});
  for (uint32_t budget : {kSharedMapBudget, 40u}) {
    const MapSharing s = shareMaps({}, dyns, {first, second, third}, budget);
    for (const MapUse& p : {first, second, third}) EXPECT_LE(mapsNamed(s, p), budget);
    EXPECT_TRUE(s.dynamics[0].shared());
    EXPECT_TRUE(s.dynamics[210].shared());
  }
}

TEST(MapSharingTest, ManyShapesAreRoundedIntoFewArraysThatHoldThem) {
  // Every variable a shape of its own: sizes are rounded up to classes
  // until the arrays fit, and each array's maps are at least as large as
  // its members need.
  std::vector<MapShape> aggs, dyns;
  for (uint32_t i = 0; i < 500; i++) {
    aggs.push_back({8 * (i + 1), i % 3 == 0 ? 16u : i % 3 == 1 ? 24u : 40u});
    dyns.push_back({8 * (i + 1), 8 * (500 - i)});
  }
  const MapUse all{ids(0, 500), ids(0, 500)};
  for (uint32_t budget : {kSharedMapBudget, 8u}) {
    const MapSharing s = shareMaps(aggs, dyns, {all}, budget);
    EXPECT_LE(s.arrays.size(), budget);
    EXPECT_LE(mapsNamed(s, all), budget);
    for (uint32_t i = 0; i < 500; i++) {
      const MapShape& a = s.arrays.at(s.aggregations[i].array).shape;
      EXPECT_GE(a.keySize, aggs[i].keySize);
      EXPECT_EQ(a.valueSize, aggs[i].valueSize);  // the function's layout, never padded
      const MapShape& d = s.arrays.at(s.dynamics[i].array).shape;
      EXPECT_GE(d.keySize, dyns[i].keySize);
      EXPECT_GE(d.valueSize, dyns[i].valueSize);
      EXPECT_EQ(d.keySize % 8, 0u);
      EXPECT_EQ(d.valueSize % 8, 0u);
    }
  }
}

TEST(MapSharingTest, EveryMemberHasTheShapeOfTheMapItIsIn) {
  std::vector<MapShape> aggs(70, MapShape{8, 16}), dyns(70, MapShape{16, 8});
  const MapUse shared{ids(0, 60), ids(0, 60)}, direct{ids(60, 10), ids(60, 10)};
  const MapSharing s = shareMaps(aggs, dyns, {shared, direct});
  ASSERT_EQ(s.aggregationShapes.size(), 70u);
  ASSERT_EQ(s.dynamicShapes.size(), 70u);
  for (uint32_t i = 0; i < 70; i++) {
    EXPECT_EQ(s.aggregations[i].shared(), i < 60);
    EXPECT_EQ(s.aggregationShapes[i], aggs[i]);
    EXPECT_EQ(s.dynamicShapes[i], dyns[i]);
  }
}

TEST(MapSharingTest, AnAggregationNamedDirectlyIsPaddedAsSharedOnesOfItsTuple) {
  // 60 tuple sizes in one program: rounded up to classes (24 bytes to
  // 32). Another program's aggregation of a 24-byte tuple keeps its own
  // map, but its keys take 32 bytes too, so that printa() can join it
  // with the shared one on their keys' bytes.
  std::vector<MapShape> aggs;
  for (uint32_t i = 0; i < 60; i++) aggs.push_back({8 * (i + 1), 16});
  aggs.push_back({24, 24});
  aggs.push_back({8 * 70, 16});
  const MapSharing s = shareMaps(aggs, {}, {{ids(0, 60), {}}, {{60, 61}, {}}});
  ASSERT_TRUE(s.aggregations[2].shared());
  ASSERT_FALSE(s.aggregations[60].shared());
  EXPECT_GT(s.aggregationShapes[2].keySize, 24u);
  EXPECT_EQ(s.aggregationShapes[60].keySize, s.aggregationShapes[2].keySize);
  EXPECT_EQ(s.aggregationShapes[60].valueSize, 24u);
  EXPECT_EQ(s.aggregationShapes[61], aggs[61]);  // no shared one of its size
}

TEST(MapSharingTest, UseIsSortedWithoutRepeats) {
  MapUse u{{3, 7}, {1}};
  u.add({{7, 1, 5}, {1, 0}});
  EXPECT_EQ(u.aggregations, (std::vector<uint32_t>{1, 3, 5, 7}));
  EXPECT_EQ(u.dynamics, (std::vector<uint32_t>{0, 1}));
}

}  // namespace
}  // namespace dtrace::codegen
