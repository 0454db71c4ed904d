// Aggregation keys that name code merge by what they name, as DTrace's
// consumer merges them when it snapshots an aggregation
// (dt_aggregate_sym, _mod, _usym, _umod): a sym() or func() key becomes
// the start of its function, mod() the start of its module, usym() and
// ufunc() the start of the function in that process, umod() where its
// object lies in that process. Two keys that named different addresses
// of one function are then one key. uaddr() and stacks are left as they
// are.
#pragma once

#include <cstdint>

#include "ir/aggregation.h"
#include "sym/user_symbols.h"

namespace dtrace::consume {

class SymbolKeys {
 public:
  // `user` names user addresses; null leaves user keys as they are.
  explicit SymbolKeys(sym::UserSymbols* user) : user_(user) {}

  // Whether some key of `agg` is of a kind that merges.
  static bool merges(const ir::Aggregation& agg);
  // Rewrites those key fields of a tuple (laid out as agg.keys says).
  void normalize(const ir::Aggregation& agg, uint8_t* key) const;

 private:
  sym::UserSymbols* user_;
};

}  // namespace dtrace::consume
