#include "consume/symbol_keys.h"

#include <cstring>

#include "print/printf.h"
#include "sym/kernel_symbols.h"

namespace dtrace::consume {

namespace {

bool isMergingKind(ir::DataKind k) {
  return k == ir::DataKind::KernelSymbol || k == ir::DataKind::KernelModule ||
         k == ir::DataKind::UserSymbol || k == ir::DataKind::UserModule;
}

uint64_t load(const uint8_t* p) { return print::readUnsigned(p, 8); }

void store(uint8_t* p, uint64_t v) { std::memcpy(p, &v, sizeof v); }

}  // namespace

bool SymbolKeys::merges(const ir::Aggregation& agg) {
  for (const ir::Field& f : agg.keys) {
    if (isMergingKind(f.kind)) return true;
  }
  return false;
}

void SymbolKeys::normalize(const ir::Aggregation& agg, uint8_t* key) const {
  for (const ir::Field& f : agg.keys) {
    uint8_t* p = key + f.offset;
    switch (f.kind) {
      case ir::DataKind::KernelSymbol:
      case ir::DataKind::KernelModule: {
        const sym::KernelSymbols& kernel = sym::KernelSymbols::get();
        std::optional<sym::KernelSymbol> s = kernel.containing(load(p));
        if (!s) break;
        if (f.kind == ir::DataKind::KernelSymbol) {
          store(p, s->address);
        } else if (std::optional<uint64_t> module = kernel.moduleAddress(s->module)) {
          store(p, *module);
        }
        break;
      }
      case ir::DataKind::UserSymbol:
      case ir::DataKind::UserModule: {
        if (!user_) break;
        uint8_t* pc = p + ir::kUserPidBytes;
        const sym::UserSymbol s = user_->lookup(static_cast<int>(load(p)), load(pc));
        if (f.kind == ir::DataKind::UserSymbol && !s.function.empty()) {
          store(pc, s.functionAddress);
        } else if (f.kind == ir::DataKind::UserModule && !s.object.empty()) {
          store(pc, s.mappingAddress);
        }
        break;
      }
      default:
        break;
    }
  }
}

}  // namespace dtrace::consume
