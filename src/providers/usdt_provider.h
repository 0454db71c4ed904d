// USDT: the static probes that programs and libraries ship as systemtap
// `.note.stapsdt` notes (what <sys/sdt.h> and our `dtrace -h` write), read
// straight from the objects a process maps, without a daemon. The probes
// of provider P in process N form provider PN, as DTrace names them
// (python1234:libpython3.11.so.1.0:_PyEval_EvalFrameDefault:function-entry);
// arguments are decoded from each note's argument specs and typed from
// the provider's definition when the object carries it (dtrace -G).
#pragma once

#include <memory>

#include "providers/provider.h"

namespace dtrace::providers {

// Makes the USDT providers of processes as descriptions name them:
// test_prov1234, python*, p*n1234.
std::unique_ptr<ProviderFamily> makeUsdtProviderFamily();

}  // namespace dtrace::providers
