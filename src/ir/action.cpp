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
      {"printa", ActionKind::Printa},     {"clear", ActionKind::Clear},
      {"trunc", ActionKind::Trunc},       {"normalize", ActionKind::Normalize},
      {"denormalize", ActionKind::Denormalize}, {"setopt", ActionKind::Setopt},
      {"print", ActionKind::Print},       {"printm", ActionKind::Printm},
      {"stack", ActionKind::Stack},       {"ustack", ActionKind::Stack},
      {"jstack", ActionKind::Stack},      {"sym", ActionKind::Symbol},
      {"func", ActionKind::Symbol},       {"mod", ActionKind::Symbol},
      {"usym", ActionKind::Symbol},       {"ufunc", ActionKind::Symbol},
      {"umod", ActionKind::Symbol},       {"uaddr", ActionKind::Symbol},
      {"speculate", ActionKind::Speculate}, {"commit", ActionKind::Commit},
      {"discard", ActionKind::Discard},
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

bool actsOnSpeculations(ActionKind kind) {
  return kind == ActionKind::Speculate || kind == ActionKind::Commit ||
         kind == ActionKind::Discard;
}

bool recordsTracedData(ActionKind kind) { return !isDestructive(kind) && !actsOnSpeculations(kind); }

bool takesFormat(ActionKind kind) {
  return kind == ActionKind::Printf || kind == ActionKind::System || kind == ActionKind::Freopen;
}

bool actsOnAggregations(ActionKind kind) {
  switch (kind) {
    case ActionKind::Printa:
    case ActionKind::Clear:
    case ActionKind::Trunc:
    case ActionKind::Normalize:
    case ActionKind::Denormalize:
      return true;
    default:
      return false;
  }
}

size_t firstRecordedArgument(ActionKind kind) {
  return takesFormat(kind) || kind == ActionKind::Trunc || kind == ActionKind::Normalize ? 1 : 0;
}

}  // namespace dtrace::ir
