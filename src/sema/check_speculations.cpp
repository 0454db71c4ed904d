// DTrace's rules on the order of a clause's actions around speculate()
// and commit() (illumos' dt_compile_one_clause): a speculating clause
// records data only, into its speculation; a committing clause records
// nothing of its own. Each broken rule is refused with DTrace's tag, at the
// action that breaks it.
#include "sema/checker.h"

namespace dtrace::sema {

namespace {

// One action of a clause, in source order; aggregations are assignments.
struct ClauseAction {
  const ast::Expr* node;
  std::optional<ir::ActionKind> kind;  // none for an aggregating function
  bool destructiveCall = false;        // a destructive subroutine (panic, copyout, ...)
};

bool isAggregationTarget(const ast::Expr& e) {
  if (e.kind == ast::ExprKind::AggregationRef) return true;
  return e.kind == ast::ExprKind::Index && !e.operands.empty() &&
         e.operands[0]->kind == ast::ExprKind::AggregationRef;
}

void collect(const std::vector<ast::StmtPtr>& stmts, std::vector<ClauseAction>& out) {
  for (const auto& s : stmts) {
    collect(s->body, out);
    collect(s->elseBody, out);
    if (s->kind != ast::StmtKind::Expr || !s->expr) continue;
    const ast::Expr& e = *s->expr;
    if (e.kind == ast::ExprKind::Call) {
      if (auto kind = ir::actionNamed(e.text)) out.push_back({&e, kind});
      if (isUnavailableDestructive(e.text)) out.push_back({&e, std::nullopt, true});
    } else if (e.kind == ast::ExprKind::Assign && !e.operands.empty() &&
               isAggregationTarget(*e.operands[0])) {
      out.push_back({&e, std::nullopt});
    }
  }
}

}  // namespace

bool Checker::checkSpeculationRules(const ast::ProbeClause& clause) {
  std::vector<ClauseAction> actions;
  collect(clause.body, actions);
  bool speculating = false, committed = false, recorded = false;
  for (size_t i = 0; i < actions.size(); i++) {
    const SourceLoc loc = actions[i].node->loc;
    const std::optional<ir::ActionKind> kind = actions[i].kind;
    if (kind == ir::ActionKind::Commit) {
      if (committed) return error("D_COMM_COMM", loc, "commit( ) may not follow commit( )");
      if (recorded) {
        return error("D_COMM_DREC", loc, "commit( ) may not follow data-recording action(s)");
      }
      for (size_t j = i + 1; j < actions.size(); j++) {
        if (!actions[j].kind && !actions[j].destructiveCall) {
          return error("D_AGG_COMM", actions[j].node->loc,
                       "aggregating actions may not follow commit( )");
        }
      }
      committed = true;
      continue;
    }
    if (kind == ir::ActionKind::Speculate) {
      if (speculating) return error("D_SPEC_SPEC", loc, "speculate( ) may not follow speculate( )");
      if (committed) return error("D_SPEC_COMM", loc, "speculate( ) may not follow commit( )");
      if (recorded) {
        return error("D_SPEC_DREC", loc, "speculate( ) may not follow data-recording action(s)");
      }
      speculating = true;
      continue;
    }
    if (actions[i].destructiveCall) {
      if (speculating) {
        return error("D_ACT_SPEC", loc, "destructive actions may not follow speculate( )");
      }
      continue;
    }
    if (!kind) {
      if (speculating) {
        return error("D_AGG_SPEC", loc, "aggregating actions may not follow speculate( )");
      }
      recorded = true;
      continue;
    }
    if (speculating && ir::isDestructive(*kind)) {
      return error("D_ACT_SPEC", loc, "destructive actions may not follow speculate( )");
    }
    if (speculating && kind == ir::ActionKind::Exit) {
      return error("D_EXIT_SPEC", loc, "exit( ) may not follow speculate( )");
    }
    if (!ir::recordsTracedData(*kind)) continue;
    if (committed)
      return error("D_DREC_COMM", loc, "data-recording actions may not follow commit( )");
    if (!speculating) recorded = true;
  }
  return true;
}

}  // namespace dtrace::sema
