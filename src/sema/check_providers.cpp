// Provider definitions, as dtrace -h and -G read them: names DTrace can
// publish, argument types it can resolve, and probes declared twice only
// with the same prototype.
#include <cctype>

#include "sema/checker.h"

namespace dtrace::sema {

namespace {

constexpr size_t kProviderNameMax = 63;  // DTRACE_PROVNAMELEN less its NUL

bool sameTypes(const std::vector<const Type*>& a, const std::vector<const Type*>& b) {
  return a == b;  // types are interned: equal types are the same object
}

}  // namespace

bool Checker::checkProviders(ast::Program& program) {
  for (auto& item : program.items) {
    bool ok = true;
    if (auto* decl = std::get_if<ast::Declaration>(&item)) {
      ok = checkDeclaration(*decl);
    } else if (auto* provider = std::get_if<ast::ProviderDecl>(&item)) {
      ok = checkProvider(*provider);
    }
    if (!ok) return false;
  }
  // The same provider may be defined in several blocks: a probe declared
  // again must keep its prototype.
  std::map<std::string, const ast::ProviderProbeDecl*> seen;
  for (const auto& item : program.items) {
    const auto* provider = std::get_if<ast::ProviderDecl>(&item);
    if (!provider) continue;
    for (const auto& probe : provider->probes) {
      auto [it, added] = seen.emplace(provider->name + ":" + probe.name, &probe);
      if (added) continue;
      const ast::ProviderProbeDecl& old = *it->second;
      const bool nativeSame = sameTypes(old.nativeTypes, probe.nativeTypes);
      if (!nativeSame || !sameTypes(old.translatedTypes, probe.translatedTypes)) {
        return error("D_PROV_INCOMPAT", probe.loc,
                     "probe " + provider->name + ":" + probe.name + " " +
                         (nativeSame ? "output" : "input") + " prototype mismatch");
      }
    }
  }
  return true;
}

// dt_node_provider's name rules: a provider's probes are published as
// NAME<pid>, so the name may not end with a digit.
bool Checker::checkProvider(ast::ProviderDecl& provider) {
  const std::string& name = provider.name;
  if (name.find('`') != std::string::npos) {
    return error("D_PROV_BADNAME", provider.loc,
                 "provider name may not contain scoping operator: " + name);
  }
  if (name.size() > kProviderNameMax) {
    return error("D_PROV_BADNAME", provider.loc,
                 "provider name may not exceed " + std::to_string(kProviderNameMax) +
                     " characters: " + name);
  }
  if (std::isdigit(static_cast<unsigned char>(name.back()))) {
    return error("D_PROV_BADNAME", provider.loc, "provider name may not end with a digit: " + name);
  }
  for (auto& probe : provider.probes) {
    const std::string full = name + ":" + probe.name;
    if (!probePrototype(full, "input", probe.nativeArgs, probe.nativeVarargs, probe.loc,
                        probe.nativeTypes)) {
      return false;
    }
    if (!probe.hasTranslated) {
      probe.translatedTypes = probe.nativeTypes;
    } else if (!probePrototype(full, "output", probe.translatedArgs, probe.translatedVarargs,
                               probe.loc, probe.translatedTypes)) {
      return false;
    }
  }
  return true;
}

// One argument list: `(void)` is no arguments; void anywhere else, and
// `...`, have no place in a probe's prototype.
bool Checker::probePrototype(const std::string& probe, const char* kind,
                             const std::vector<std::shared_ptr<ast::ParamDecl>>& params,
                             bool varargs, SourceLoc loc, std::vector<const Type*>& types) {
  types.clear();
  if (varargs) {
    return error(
        "D_DECL_PROTO_VARARGS", loc,
        "probe " + probe + " " + kind + " prototype may not use a variable-length argument list");
  }
  for (size_t i = 0; i < params.size(); i++) {
    const ast::ParamDecl& param = *params[i];
    const Type* t = resolveDeclared(param.spec, param.declarator);
    if (!t) return false;
    if (t->isVoid()) {
      if (params.size() == 1 && param.declarator.name.empty()) break;  // (void)
      return error("D_DECL_PROTO_TYPE", loc,
                   "probe " + probe + " " + kind + " prototype may not use parameter of type " +
                       t->name + ": parameter #" + std::to_string(i + 1));
    }
    types.push_back(t);
  }
  return true;
}

}  // namespace dtrace::sema
