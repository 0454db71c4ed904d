// DTrace's action names and what the compiler and consumer need to know of
// each kind.
#include "ir/program.h"

namespace dtrace::ir {

std::optional<ActionKind> actionNamed(std::string_view name) {
  static const std::pair<std::string_view, ActionKind> kActions[] = {
      {"trace", ActionKind::Trace},       {"printf", ActionKind::Printf},
      {"exit", ActionKind::Exit},         {"system", ActionKind::System},
      {"freopen", ActionKind::Freopen},   {"ftruncate", ActionKind::Ftruncate},
      {"tracemem", ActionKind::Tracemem}, {"raise", ActionKind::Raise},
      {"stop", ActionKind::Stop},         {"chill", ActionKind::Chill},
  };
  for (const auto& [n, kind] : kActions) {
    if (n == name) return kind;
  }
  return std::nullopt;
}

bool isDestructive(ActionKind kind) {
  switch (kind) {
    case ActionKind::Raise:
    case ActionKind::Stop:
    case ActionKind::Chill:
    case ActionKind::System:
    case ActionKind::Freopen:
      return true;
    default:
      return false;
  }
}

bool takesFormat(ActionKind kind) {
  return kind == ActionKind::Printf || kind == ActionKind::System || kind == ActionKind::Freopen;
}

}  // namespace dtrace::ir
