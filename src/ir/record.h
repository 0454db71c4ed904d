// The fields of a record (and of an aggregation's key): where each value
// sits and how its bytes are to be read.
#pragma once

#include <cstdint>

namespace dtrace::ir {

enum class DataKind : uint8_t {
  Signed,    // two's-complement integer of `size` bytes
  Unsigned,  // unsigned integer of `size` bytes
  String,    // NUL-terminated within `size` bytes
  Bytes,     // a struct, union or array: the value's bytes as they are in memory
  // Program counters, named by the consumer from symbol tables. Kernel
  // ones are one u64 address; user ones are the process id (u64), then
  // the address, so that the consumer knows whose mappings to read.
  KernelStack,    // stack(): u64 frames, the unused ones 0
  UserStack,      // ustack(): pid, then u64 frames, the unused ones 0
  KernelSymbol,   // sym(), func(): "module`function"
  KernelModule,   // mod(): "module"
  UserSymbol,     // usym(), ufunc(): pid, address
  UserModule,     // umod(): pid, address
  UserAddress,    // uaddr(): pid, address, shown with its offset
};

// Program-counter kinds: their keys merge by symbol in aggregations.
inline bool isCodeAddressKind(DataKind k) {
  return k == DataKind::KernelStack || k == DataKind::UserStack || k == DataKind::KernelSymbol ||
         k == DataKind::KernelModule || k == DataKind::UserSymbol || k == DataKind::UserModule ||
         k == DataKind::UserAddress;
}

// The bytes before the frames of a UserStack field, and before the
// address of the other user kinds: the process id.
constexpr uint32_t kUserPidBytes = 8;

// The kinds that hold an address of a process (after its id).
inline bool isUserCodeKind(DataKind k) {
  return k == DataKind::UserStack || k == DataKind::UserSymbol || k == DataKind::UserModule ||
         k == DataKind::UserAddress;
}

struct Field {
  uint32_t offset = 0;  // from the start of the record data (after RecordHeader)
  uint32_t size = 0;
  DataKind kind = DataKind::Signed;
  bool isPointer = false;  // print as an address (%p-like) where the action cares
};

}  // namespace dtrace::ir
