// Entry access to a BPF map through a descriptor someone else owns: the
// consumer reads and trims the aggregation maps the session created.
#pragma once

namespace dtrace::bpf {

class MapView {
 public:
  explicit MapView(int fd) : fd_(fd) {}

  int fd() const { return fd_; }
  // True with `value` filled if the key is present; else false with errno
  // set (ENOENT: absent).
  bool lookup(const void* key, void* value) const;
  // True if the key existed and was deleted; else false with errno set.
  bool erase(const void* key) const;
  // Key after `key` (or the first key when `key` is null) into `next`;
  // false at the end of the map (errno ENOENT) or on an error.
  bool nextKey(const void* key, void* next) const;

 private:
  int fd_;
};

// The number of possible CPUs (libbpf's count, cached); negative when it
// cannot be read.
int possibleCpuCount();

}  // namespace dtrace::bpf
