// Builds record data by hand for tests: each added value becomes an
// ir::Field at its natural alignment.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "ir/program.h"

namespace dtrace::testing {

class RecordBuilder {
 public:
  template <class T>
  RecordBuilder& add(T value) {
    constexpr bool isSigned = static_cast<T>(-1) < static_cast<T>(0);
    place(&value, sizeof value, sizeof value,
          isSigned ? ir::DataKind::Signed : ir::DataKind::Unsigned);
    return *this;
  }

  RecordBuilder& addString(const std::string& s, uint32_t size) {
    std::vector<uint8_t> bytes(size, 0);
    std::memcpy(bytes.data(), s.data(), s.size() < size ? s.size() : size);
    place(bytes.data(), size, 1, ir::DataKind::String);
    return *this;
  }

  RecordBuilder& addBytes(const std::vector<uint8_t>& bytes) {
    place(bytes.data(), static_cast<uint32_t>(bytes.size()), 1, ir::DataKind::Bytes);
    return *this;
  }

  const std::vector<uint8_t>& data() const { return data_; }
  const std::vector<ir::Field>& fields() const { return fields_; }

  // Data padded to a multiple of 8 bytes, as an ECB's dataSize is.
  std::vector<uint8_t> padded() const {
    std::vector<uint8_t> d = data_;
    d.resize((d.size() + 7) / 8 * 8, 0);
    return d;
  }

 private:
  void place(const void* p, uint32_t size, uint32_t align, ir::DataKind kind) {
    size_t offset = (data_.size() + align - 1) / align * align;
    data_.resize(offset + size, 0);
    std::memcpy(data_.data() + offset, p, size);
    ir::Field f;
    f.offset = static_cast<uint32_t>(offset);
    f.size = size;
    f.kind = kind;
    fields_.push_back(f);
  }

  std::vector<uint8_t> data_;
  std::vector<ir::Field> fields_;
};

}  // namespace dtrace::testing
