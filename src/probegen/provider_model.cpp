#include "probegen/provider_model.h"

#include "sema/types.h"

namespace dtrace::probegen {

namespace {

using sema::Type;

// A C spelling of a pointer to `target`, or "" when C would need a
// declarator around the name (pointers to functions and arrays) or the
// type has no C name (D's string, an anonymous struct).
std::string pointerSpelling(const Type* target) {
  switch (target->kind) {
    case Type::Kind::Void:
    case Type::Kind::Integer:
    case Type::Kind::Float:
      return target->name + " *";
    case Type::Kind::Struct:
    case Type::Kind::Union:
      return target->name.find('<') == std::string::npos ? target->name + " *" : "";
    case Type::Kind::Enum:
      return "int *";
    case Type::Kind::Pointer: {
      std::string inner = pointerSpelling(target->target);
      return inner.empty() ? "" : inner + "*";
    }
    default:
      return "";
  }
}

std::string pointerCType(const Type* target) {
  std::string spelled = pointerSpelling(target);
  return spelled.empty() ? "void *" : spelled;
}

// A native argument: what a register or a stack slot can carry.
bool nativeArgument(const Type* t, ArgumentType& arg) {
  arg.dType = t->name;
  switch (t->kind) {
    case Type::Kind::Integer:
      arg.cType = t->name;
      arg.size = t->size;
      arg.isSigned = t->isSigned;
      arg.wordSized = t->rank == 4;  // long and unsigned long
      return true;
    case Type::Kind::Enum:
      arg.cType = "int";
      arg.size = 4;
      arg.isSigned = true;
      return true;
    case Type::Kind::String:  // passed as the address of its characters
      arg.cType = "char *";
      arg.size = 8;
      arg.wordSized = true;
      return true;
    case Type::Kind::Pointer:
    case Type::Kind::Array:  // an array parameter is a pointer, as in C
      if (t->kind == Type::Kind::Array) {
        std::string elementPointer = t->target->name;
        elementPointer += elementPointer.ends_with('*') ? "*" : " *";
        arg.dType = elementPointer;
      }
      arg.cType = pointerCType(t->target);
      arg.size = 8;
      arg.wordSized = true;
      return true;
    default:
      return false;
  }
}

// A translated argument is what args[] holds: any type D can translate to.
ArgumentType translatedArgument(const Type* t) {
  ArgumentType arg;
  if (nativeArgument(t, arg)) return arg;
  arg.dType = t->name;
  arg.size = t->size;
  return arg;
}

// illumos maps a translated argument to the native argument of the same
// name, and otherwise to the one at its own position.
uint32_t mappingOf(const ast::ProviderProbeDecl& probe, size_t i) {
  const std::string& name = probe.translatedArgs[i]->declarator.name;
  if (!name.empty()) {
    for (size_t n = 0; n < probe.nativeArgs.size(); n++) {
      if (probe.nativeArgs[n]->declarator.name == name) return static_cast<uint32_t>(n);
    }
  }
  return static_cast<uint32_t>(i);
}

bool describeProbe(const std::string& provider, const ast::ProviderProbeDecl& decl,
                   ProbeDefinition& probe, Diagnostics& diags) {
  probe.name = decl.name;
  probe.loc = decl.loc;
  const std::string full = provider + ":" + decl.name;
  for (size_t i = 0; i < decl.nativeTypes.size(); i++) {
    ArgumentType arg;
    if (!nativeArgument(decl.nativeTypes[i], arg)) {
      diags.error("D_PROV_ARGTYPE", decl.loc,
                  "probe " + full + " input argument #" + std::to_string(i + 1) + " has type " +
                      decl.nativeTypes[i]->name + ": a probe passes integers and pointers");
      return false;
    }
    probe.nativeArgs.push_back(std::move(arg));
  }
  for (size_t i = 0; i < decl.translatedTypes.size(); i++) {
    const uint32_t from = decl.hasTranslated ? mappingOf(decl, i) : static_cast<uint32_t>(i);
    if (from >= probe.nativeArgs.size()) {
      diags.error("D_PROV_PRARGLEN", decl.loc,
                  "probe " + full + " output argument #" + std::to_string(i + 1) +
                      " has no input argument to be translated from");
      return false;
    }
    probe.translatedArgs.push_back(translatedArgument(decl.translatedTypes[i]));
    probe.argMapping.push_back(from);
  }
  return true;
}

}  // namespace

bool describeProviders(const ast::Program& program, std::vector<ProviderDefinition>& providers,
                       Diagnostics& diags) {
  for (const auto& item : program.items) {
    const auto* decl = std::get_if<ast::ProviderDecl>(&item);
    if (!decl) continue;
    ProviderDefinition* provider = nullptr;
    for (auto& p : providers) {
      if (p.name == decl->name) provider = &p;
    }
    if (!provider) provider = &providers.emplace_back(ProviderDefinition{decl->name, {}});
    for (const auto& probeDecl : decl->probes) {
      bool known = false;
      for (const auto& p : provider->probes) known |= p.name == probeDecl.name;
      if (known) continue;  // sema made sure the prototypes agree
      ProbeDefinition probe;
      if (!describeProbe(decl->name, probeDecl, probe, diags)) return false;
      provider->probes.push_back(std::move(probe));
    }
  }
  return true;
}

sym::ProviderDefinition sectionForm(const ProviderDefinition& provider, DataModel model) {
  sym::ProviderDefinition out{provider.name, {}};
  for (const ProbeDefinition& probe : provider.probes) {
    sym::ProviderProbe p{probe.name, {}, {}, probe.argMapping};
    for (const ArgumentType& arg : probe.nativeArgs) {
      p.nativeArgs.push_back({arg.dType, arg.noteSize(model)});
    }
    for (const ArgumentType& arg : probe.translatedArgs) {
      p.translatedArgs.push_back({arg.dType, arg.noteSize(model)});
    }
    out.probes.push_back(std::move(p));
  }
  return out;
}

}  // namespace dtrace::probegen
