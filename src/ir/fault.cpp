// DTrace's words for each probe-context fault, as ERROR messages show them.
#include "ir/program.h"

namespace dtrace::ir {

const char* faultMessage(Fault f) {
  switch (f) {
    case Fault::BadAddr:
      return "invalid address";
    case Fault::BadAlign:
      return "invalid alignment";
    case Fault::IllOp:
      return "illegal operation";
    case Fault::DivZero:
      return "divide-by-zero";
    case Fault::NoScratch:
      return "out of scratch space";
    case Fault::KPriv:
      return "invalid kernel access";
    case Fault::UPriv:
      return "invalid user access";
    case Fault::TupOflow:
      return "tuple stack overflow";
    case Fault::BadStack:
      return "bad stack";
    case Fault::BadIndex:
      return "index out of range";
    case Fault::None:
      break;
  }
  return "unknown fault";
}

}  // namespace dtrace::ir
