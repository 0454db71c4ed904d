#include "codegen/map_sharing.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "sema/checker.h"

namespace dtrace::codegen {

namespace {

void addSorted(std::vector<uint32_t>& ids, uint32_t id) {
  auto at = std::lower_bound(ids.begin(), ids.end(), id);
  if (at == ids.end() || *at != id) ids.insert(at, id);
}

const sema::Variable* aggregationAssigned(const ast::Expr& e) {
  if (e.kind != ast::ExprKind::Assign) return nullptr;
  const ast::Expr& target = *e.operands[0];
  const ast::Expr& ref = target.kind == ast::ExprKind::Index ? *target.operands[0] : target;
  if (ref.variable && ref.variable->kind == sema::Variable::Kind::Aggregation) return ref.variable;
  return nullptr;
}

void scan(const ast::Expr* e, MapUse& use) {
  if (!e) return;
  if (e->variable && e->variable->isDynamic()) addSorted(use.dynamics, e->variable->dynamicId);
  if (const sema::Variable* agg = aggregationAssigned(*e)) {
    addSorted(use.aggregations, agg->aggregationId);
  }
  for (const auto& o : e->operands) scan(o.get(), use);
  // What the expression stands for is evaluated too (see layout.cpp's scan).
  scan(e->inlineValue, use);
  scan(e->translatedMember, use);
  if (e->translation && e->translation->translator) {
    for (const auto& [name, member] : e->translation->translator->members) scan(member, use);
  }
}

void scan(const std::vector<ast::StmtPtr>& stmts, MapUse& use) {
  for (const auto& s : stmts) {
    scan(s->expr.get(), use);
    scan(s->body, use);
    scan(s->elseBody, use);
  }
}

// Coarser and coarser classes of sizes (multiples of 8): the size itself,
// then the next power of 2, of 4 and of 16 (times 8), then the largest
// size of the members being shared.
constexpr int kCoarsestLevel = 4;

uint32_t sizeClass(uint32_t size, int level, uint32_t largest) {
  if (level == 0) return size;
  if (level == kCoarsestLevel) return largest;
  const uint64_t factor = level == 1 ? 2 : level == 2 ? 4 : 16;
  uint64_t c = 8;
  while (c < size) c *= factor;
  return c > largest ? std::max(size, largest) : static_cast<uint32_t>(c);
}

struct Shared {
  std::vector<bool> aggregations, dynamics;
};

// The arrays holding the shared members, at the finest level of classes
// that needs no more than `budget` of them.
MapSharing group(const std::vector<MapShape>& aggregations, const std::vector<MapShape>& dynamics,
                 const Shared& shared, uint32_t budget) {
  uint32_t largestAggregationKey = 8, largestKey = 8, largestValue = 8;
  for (size_t i = 0; i < aggregations.size(); i++) {
    if (shared.aggregations[i]) {
      largestAggregationKey = std::max(largestAggregationKey, aggregations[i].keySize);
    }
  }
  for (size_t i = 0; i < dynamics.size(); i++) {
    if (!shared.dynamics[i]) continue;
    largestKey = std::max(largestKey, dynamics[i].keySize);
    largestValue = std::max(largestValue, dynamics[i].valueSize);
  }
  std::map<std::tuple<MapKind, MapShape>, std::vector<uint32_t>> classes;
  for (int level = 0; level <= kCoarsestLevel; level++) {
    classes.clear();
    // An aggregation's value is one of a few sizes its function fixes: it
    // is never padded (the consumer reads it as the function lays it out).
    for (uint32_t i = 0; i < aggregations.size(); i++) {
      if (!shared.aggregations[i]) continue;
      const MapShape s{sizeClass(aggregations[i].keySize, level, largestAggregationKey),
                       aggregations[i].valueSize};
      classes[{MapKind::Aggregation, s}].push_back(i);
    }
    for (uint32_t i = 0; i < dynamics.size(); i++) {
      if (!shared.dynamics[i]) continue;
      const MapShape s{sizeClass(dynamics[i].keySize, level, largestKey),
                       sizeClass(dynamics[i].valueSize, level, largestValue)};
      classes[{MapKind::Dynamic, s}].push_back(i);
    }
    if (classes.size() <= budget) break;
  }
  MapSharing out;
  out.aggregations.resize(aggregations.size());
  out.dynamics.resize(dynamics.size());
  for (auto& [key, members] : classes) {
    const int32_t array = static_cast<int32_t>(out.arrays.size());
    const MapKind kind = std::get<0>(key);
    for (uint32_t slot = 0; slot < members.size(); slot++) {
      auto& places = kind == MapKind::Aggregation ? out.aggregations : out.dynamics;
      places[members[slot]] = {array, slot};
    }
    out.arrays.push_back({kind, std::get<1>(key), std::move(members)});
  }
  return out;
}

// The maps of aggregations and dynamic variables that `program` names.
uint32_t mapsOf(const MapUse& program, const MapSharing& sharing) {
  uint32_t direct = 0;
  std::set<int32_t> arrays;
  auto count = [&](const std::vector<uint32_t>& ids, const std::vector<MapPlace>& places) {
    for (uint32_t id : ids) {
      const MapPlace& p = places.at(id);
      if (p.shared()) {
        arrays.insert(p.array);
      } else {
        direct++;
      }
    }
  };
  count(program.aggregations, sharing.aggregations);
  count(program.dynamics, sharing.dynamics);
  return direct + static_cast<uint32_t>(arrays.size());
}

void setShapes(MapSharing& sharing, const std::vector<MapShape>& aggregations,
               const std::vector<MapShape>& dynamics) {
  auto shapeOf = [&](const MapPlace& place, const MapShape& own) {
    return place.shared() ? sharing.arrays.at(place.array).shape : own;
  };
  std::map<uint32_t, uint32_t> paddedKey;  // an aggregation's tuple size: its padded size
  for (size_t i = 0; i < aggregations.size(); i++) {
    sharing.aggregationShapes.push_back(shapeOf(sharing.aggregations[i], aggregations[i]));
    if (sharing.aggregations[i].shared()) {
      paddedKey[aggregations[i].keySize] = sharing.aggregationShapes[i].keySize;
    }
  }
  for (size_t i = 0; i < aggregations.size(); i++) {
    auto padded = paddedKey.find(aggregations[i].keySize);
    if (padded != paddedKey.end()) sharing.aggregationShapes[i].keySize = padded->second;
  }
  for (size_t i = 0; i < dynamics.size(); i++) {
    sharing.dynamicShapes.push_back(shapeOf(sharing.dynamics[i], dynamics[i]));
  }
}

}  // namespace

void MapUse::add(const MapUse& other) {
  for (uint32_t id : other.aggregations) addSorted(aggregations, id);
  for (uint32_t id : other.dynamics) addSorted(dynamics, id);
}

MapUse mapsUsed(const ast::ProbeClause& clause) {
  MapUse use;
  scan(clause.predicate.get(), use);
  scan(clause.body, use);
  return use;
}

MapSharing shareMaps(const std::vector<MapShape>& aggregations,
                     const std::vector<MapShape>& dynamics, const std::vector<MapUse>& programs,
                     uint32_t budget) {
  // Every member named directly, the cheapest way, until some program
  // needs more maps than the budget: then what it uses is shared. Sharing
  // only ever grows, and a program whose members are all shared fits.
  Shared shared{std::vector<bool>(aggregations.size()), std::vector<bool>(dynamics.size())};
  for (;;) {
    MapSharing sharing = group(aggregations, dynamics, shared, budget);
    bool more = false;
    for (const MapUse& program : programs) {
      if (mapsOf(program, sharing) <= budget) continue;
      for (uint32_t id : program.aggregations) {
        more |= !shared.aggregations.at(id);
        shared.aggregations[id] = true;
      }
      for (uint32_t id : program.dynamics) {
        more |= !shared.dynamics.at(id);
        shared.dynamics[id] = true;
      }
    }
    if (!more) {
      setShapes(sharing, aggregations, dynamics);
      return sharing;
    }
  }
}

}  // namespace dtrace::codegen
