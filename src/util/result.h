// Errors as values: every fallible library call returns Result<T>, and the
// message travels to one reporting point (the CLI) instead of being thrown.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace dtrace {

struct Error {
  Error() = default;
  Error(std::string text, std::string errorTag = {})  // NOLINT: a message is an error
      : message(std::move(text)), tag(std::move(errorTag)) {}
  std::string message;
  std::string tag;  // a D compiler error tag (D_PROC_FUNC ...) when one applies
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  T* operator->() { return &value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), ok_(false) {}
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }

 private:
  Error error_;
  bool ok_ = true;
};

inline Error makeError(std::string message) { return Error{std::move(message), {}}; }
inline Error makeTaggedError(std::string tag, std::string message) {
  return Error{std::move(message), std::move(tag)};
}

}  // namespace dtrace
