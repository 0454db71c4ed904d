// Which kernel maps a program reaches its aggregations and dynamic
// variables through. Each aggregation and each dynamic variable keeps a
// BPF hash map of its own, which its size bounds (aggsize, dynvarsize) and
// the consumer reads, and a program names it directly. But the kernel lets
// one program use at most 64 maps (the verifier's MAX_USED_MAPS), where
// DTrace has no such limit: a program whose clauses use more puts the hash
// maps of what it uses in arrays of maps instead, one array per shape of
// map (key and value size), and looks the map up in its array (one inlined
// array lookup). An array counts as one map, and the arrays are few
// whatever the program's size: when there are too many shapes, sizes are
// rounded up to coarser classes, down to one key size per kind and value
// size.
#pragma once

#include <compare>
#include <cstdint>
#include <vector>

#include "parse/ast.h"

namespace dtrace::codegen {

// The kernel's limit on the maps one program uses.
constexpr uint32_t kMaxMapsPerProgram = 64;
// Maps any program may use besides aggregations and dynamic variables:
// globals, scratch, counters, the principal buffers, a shared program's
// probe table, the speculations' usage, the aggregation zero value, the
// unwind tables' rows and processes (ustack()), a probe's thread record
// (lockstat, plockstat), and one to spare.
constexpr uint32_t kFixedMapsPerProgram = 11;
constexpr uint32_t kSharedMapBudget = kMaxMapsPerProgram - kFixedMapsPerProgram;

enum class MapKind : uint8_t { Aggregation, Dynamic };

// The bytes of one hash map's key and value: an aggregation's tuple
// (Aggregation::keySize, the CPU slot not counted) and value, or a dynamic
// variable's key and value.
struct MapShape {
  uint32_t keySize = 8;
  uint32_t valueSize = 8;
  bool operator==(const MapShape&) const = default;
  auto operator<=>(const MapShape&) const = default;
};

// An array of maps holding hash maps of one shape.
struct MapArray {
  MapKind kind = MapKind::Aggregation;
  MapShape shape;
  std::vector<uint32_t> members;  // aggregation or dynamic variable ids, by slot
};

// Where programs find one aggregation's or dynamic variable's hash map.
struct MapPlace {
  int32_t array = -1;  // in Layout::mapArrays; -1: named directly
  uint32_t slot = 0;
  bool shared() const { return array >= 0; }
};

// The aggregations and dynamic variables one program uses in probe
// context, by id (sorted, no repeats).
struct MapUse {
  std::vector<uint32_t> aggregations;
  std::vector<uint32_t> dynamics;
  void add(const MapUse& other);
};

// What a clause's predicate and statements use: the aggregations it
// aggregates into and the dynamic variables it reads or writes (printa()
// and the like read aggregations in the consumer, not in the program).
MapUse mapsUsed(const ast::ProbeClause& clause);

struct MapSharing {
  std::vector<MapArray> arrays;
  std::vector<MapPlace> aggregations;  // by aggregation id
  std::vector<MapPlace> dynamics;      // by dynamic variable id
  // Each one's map as programs use it: a shared one's is its array's
  // shape. An aggregation named directly whose tuple is as long as a
  // padded one's is padded alike, since printa() of several aggregations
  // (of one tuple type) joins them on their keys' bytes.
  std::vector<MapShape> aggregationShapes, dynamicShapes;
};

// Places every aggregation and dynamic variable (their maps' shapes as
// their own sizes make them) so that no program uses more than `budget`
// maps of them: those that a program over the budget uses go into arrays
// (a shared member's map takes its array's shape, which may be larger).
MapSharing shareMaps(const std::vector<MapShape>& aggregations,
                     const std::vector<MapShape>& dynamics, const std::vector<MapUse>& programs,
                     uint32_t budget = kSharedMapBudget);

}  // namespace dtrace::codegen
