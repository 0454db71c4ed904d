// An elfutils session over object files on disk (not a live process),
// whose separate debug files are looked for where distributions install
// them (/usr/lib/debug, by build-id and by debuglink), as elfutils does.
#pragma once

#include <elfutils/libdwfl.h>

#include <memory>

namespace dtrace::sym {

struct DwflCloser {
  void operator()(Dwfl* d) const { dwfl_end(d); }
};
using OfflineDwfl = std::unique_ptr<Dwfl, DwflCloser>;

inline OfflineDwfl beginOfflineDwfl() {
  static const Dwfl_Callbacks callbacks = {
      .find_elf = dwfl_build_id_find_elf,
      .find_debuginfo = dwfl_standard_find_debuginfo,
      .section_address = dwfl_offline_section_address,
      .debuginfo_path = nullptr,
  };
  return OfflineDwfl(dwfl_begin(&callbacks));
}

}  // namespace dtrace::sym
