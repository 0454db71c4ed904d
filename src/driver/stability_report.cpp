#include "driver/stability_report.h"

#include "providers/glob.h"
#include "providers/listing.h"
#include "providers/probe_args.h"
#include "sema/symbols.h"

namespace dtrace::driver {
namespace {

using providers::Attribute;
using providers::DependencyClass;
using providers::Stability;

// DTrace's attribute sets: _dtrace_maxattr (the start of a minimum),
// _dtrace_defattr (what D's own constructs have) and _dtrace_prvdesc
// (a description whose provider is not named).
constexpr Attribute kMaximum{Stability::Standard, Stability::Standard, DependencyClass::Common};
constexpr Attribute kDefault{Stability::Stable, Stability::Stable, DependencyClass::Common};
constexpr Attribute kUnnamedProvider{Stability::Unstable, Stability::Unstable,
                                     DependencyClass::Common};

bool isPattern(const std::string& field) { return field.empty() || providers::isGlob(field); }

// The identifiers of _dtrace_globals (dt_open.c) whose attributes are not
// DT_ATTR_STABCMN (Stable/Stable/Common, as every other built-in's).
Attribute identifierAttribute(const std::string& name) {
  constexpr Attribute evolving{Stability::Evolving, Stability::Evolving, DependencyClass::Common};
  static const char* const kEvolving[] = {
      "ddi_pathname",        "getmajor",        "getminor",    "mutex_owned",  "mutex_owner",
      "mutex_type_adaptive", "mutex_type_spin", "rw_iswriter", "rw_read_held", "rw_write_held",
  };
  for (const char* n : kEvolving) {
    if (name == n) return evolving;
  }
  if (name == "curthread") return {Stability::Stable, Stability::Private, DependencyClass::Common};
  return kDefault;
}

// The minimum over what a clause's statements and predicate name, as
// dt_cook_clause() takes it: built-ins by their attributes, args[] by the
// probe's argument attributes, the rest of D as _dtrace_defattr.
class StatementAttributes {
 public:
  explicit StatementAttributes(const Attribute& arguments) : arguments_(arguments) {}

  Attribute of(const ast::ProbeClause& clause) {
    if (clause.body.empty() && !clause.predicate) return kDefault;
    if (clause.predicate) expr(*clause.predicate);
    statements(clause.body);
    return result_;
  }

 private:
  void statements(const std::vector<ast::StmtPtr>& body) {
    for (const auto& s : body) {
      if (s->expr) expr(*s->expr);
      statements(s->body);
      statements(s->elseBody);
    }
  }

  void note(const Attribute& a) { result_ = providers::minAttribute(result_, a); }

  void expr(const ast::Expr& e) {
    switch (e.kind) {
      case ast::ExprKind::Call:
        note(identifierAttribute(e.text));
        break;
      case ast::ExprKind::Identifier:
        if (e.variable && e.variable->kind == sema::Variable::Kind::Builtin) {
          note(e.variable->builtin == sema::Builtin::Args ? arguments_
                                                          : identifierAttribute(e.text));
        } else {
          note(kDefault);
        }
        break;
      default:
        note(kDefault);
        break;
    }
    for (const auto& o : e.operands) expr(*o);
  }

  Attribute arguments_;
  Attribute result_ = kMaximum;
};

void appendAttribute(std::string& out, const char* title, const Attribute& a) {
  out += std::string("\n\t") + title + "\n";
  out += std::string("\t\tIdentifier Names: ") + providers::stabilityName(a.name) + "\n";
  out += std::string("\t\tData Semantics:   ") + providers::stabilityName(a.data) + "\n";
  out +=
      std::string("\t\tDependency Class: ") + providers::dependencyClassName(a.dependency) + "\n";
}

}  // namespace

DescriptionInfo describeDescription(const ast::ProbeSpec& spec,
                                    const std::vector<const providers::Probe*>& matched) {
  // dtrace_probe_info(): nothing stands for the description (no match, or
  // several whose arguments may differ), so dt_setcontext() takes
  // _dtrace_prvdesc's attributes.
  const providers::Probe* probe = providers::argsProbe(spec, matched);
  if (probe == nullptr || probe->owner == nullptr) return {kUnnamedProvider, kUnnamedProvider};
  // The provider's attributes, minimized over the fields given exactly.
  providers::ProviderAttributes pa{kUnnamedProvider, kUnnamedProvider, kUnnamedProvider,
                                   kUnnamedProvider, kUnnamedProvider};
  if (!isPattern(spec.provider)) pa = probe->owner->attributes();
  Attribute description = pa.provider;
  if (!isPattern(spec.module)) description = providers::minAttribute(description, pa.module);
  if (!isPattern(spec.function)) description = providers::minAttribute(description, pa.function);
  if (!isPattern(spec.name)) description = providers::minAttribute(description, pa.name);
  return {description, pa.args, probe};
}

std::string formatStabilityReport(const std::string& kind, const std::string& name,
                                  const std::vector<ReportedClause>& clauses, bool compileOnly) {
  // dtrace_program_info(): the minimum over the program's ECBs.
  Attribute descriptions = kMaximum, statements = kMaximum;
  for (const ReportedClause& c : clauses) {
    for (const ReportedDescription& d : c.descriptions) {
      const DescriptionInfo info = describeDescription(d.spec, d.probes);
      descriptions = providers::minAttribute(descriptions, info.description);
      statements =
          providers::minAttribute(statements, StatementAttributes(info.arguments).of(*c.clause));
    }
  }
  std::string out = "\nStability attributes for " + kind + " " + name + ":\n";
  appendAttribute(out, "Minimum Probe Description Attributes", descriptions);
  appendAttribute(out, "Minimum Statement Attributes", statements);
  if (!compileOnly) return out + "\n";
  // info_stmt(): each description, with its probe's information.
  for (const ReportedClause& c : clauses) {
    for (const ReportedDescription& d : c.descriptions) {
      out += "\n" + d.spec.provider + ":" + d.spec.module + ":" + d.spec.function + ":" +
             d.spec.name + "\n";
      const DescriptionInfo info = describeDescription(d.spec, d.probes);
      if (info.probe)
        out += providers::formatProbeInfo(*info.probe, info.description, info.arguments);
    }
  }
  return out;
}

}  // namespace dtrace::driver
