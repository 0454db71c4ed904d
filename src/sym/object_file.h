// The function symbols of one ELF object (an executable or a shared
// library), read once through elfutils' libdwfl: .symtab, or .dynsym with
// the MiniDebugInfo of .gnu_debugdata, or the symbols of a separate debug
// file found by build-id or .gnu_debuglink. Addresses here are the file's
// own virtual addresses; a mapping of the file turns a process's address
// into one (fileAddress).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sym/process_maps.h"

struct Dwfl_Module;  // elfutils

namespace dtrace::sym {

struct FunctionSymbol {
  std::string_view name;
  uint64_t address = 0;  // in the object's virtual addresses
  uint64_t size = 0;     // bytes; for an unsized symbol, up to the next function
};

class ObjectFile {
 public:
  // Reads `path`; an unreadable file gives an object with no symbols and
  // no segments.
  static std::shared_ptr<const ObjectFile> load(const std::string& path);

  // The object's virtual address of `address` in a process where `mapping`
  // (a mapping of this file) contains it.
  std::optional<uint64_t> fileAddress(const Mapping& mapping, uint64_t address) const;
  // The function containing a virtual address of the object.
  std::optional<FunctionSymbol> containing(uint64_t fileAddress) const;
  size_t functionCount() const { return functions_.size(); }
  // Every function, one name per address (the name a person would use), in
  // address order.
  std::vector<FunctionSymbol> functions() const;
  // The function with exactly this name, an alias included ("__libc_malloc"
  // as well as "malloc").
  std::optional<FunctionSymbol> function(std::string_view name) const;
  // Where the byte at a virtual address of the object lies in the file.
  std::optional<uint64_t> fileOffset(uint64_t address) const;
  // A shared object (or position-independent executable) rather than an
  // executable loaded at fixed addresses.
  bool isShared() const { return shared_; }

 private:
  struct Function {
    uint64_t address;
    uint64_t size;  // 0: runs to the next function
    uint32_t nameOffset;
    uint32_t nameLength;
  };
  struct Segment {
    uint64_t offset, address, fileSize;
  };
  void addSymbols(Dwfl_Module* module);
  FunctionSymbol symbol(size_t index) const;

  std::string names_;                // every kept name, back to back
  std::vector<Function> functions_;  // by address, one per address
  std::vector<Function> aliases_;    // the other names of those addresses
  bool shared_ = false;
  std::vector<Segment> segments_;    // PT_LOAD program headers
};

}  // namespace dtrace::sym
