#include "bpf/map_view.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

namespace dtrace::bpf {

bool MapView::lookup(const void* key, void* value) const {
  return bpf_map_lookup_elem(fd_, key, value) == 0;
}

bool MapView::erase(const void* key) const { return bpf_map_delete_elem(fd_, key) == 0; }

bool MapView::nextKey(const void* key, void* next) const {
  return bpf_map_get_next_key(fd_, key, next) == 0;
}

int possibleCpuCount() { return libbpf_num_possible_cpus(); }

}  // namespace dtrace::bpf
