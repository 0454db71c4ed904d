// DTrace's rules on the order of a clause's actions around speculate()
// and commit() (illumos' dt_compile_one_clause): a speculating clause
// records data only, into its speculation; a committing clause records
// nothing of its own. Each broken rule is refused with DTrace's tag, at the
// action that breaks it.
#include <optional>
#include <span>

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

// A broken rule: DTrace's tag and words, at the action that breaks it.
struct BrokenRule {
  const char* tag;
  SourceLoc loc;
  const char* message;
};

// The rules over one run of actions, as dt_stmt_append walks them.
std::optional<BrokenRule> firstBrokenRule(std::span<const ClauseAction> actions) {
  bool speculating = false, committed = false, recorded = false;
  for (size_t i = 0; i < actions.size(); i++) {
    const SourceLoc loc = actions[i].node->loc;
    const std::optional<ir::ActionKind> kind = actions[i].kind;
    if (kind == ir::ActionKind::Commit) {
      if (committed) return BrokenRule{"D_COMM_COMM", loc, "commit( ) may not follow commit( )"};
      if (recorded) {
        return BrokenRule{"D_COMM_DREC", loc, "commit( ) may not follow data-recording action(s)"};
      }
      for (size_t j = i + 1; j < actions.size(); j++) {
        if (!actions[j].kind && !actions[j].destructiveCall) {
          return BrokenRule{"D_AGG_COMM", actions[j].node->loc,
                            "aggregating actions may not follow commit( )"};
        }
      }
      committed = true;
      continue;
    }
    if (kind == ir::ActionKind::Speculate) {
      if (speculating) {
        return BrokenRule{"D_SPEC_SPEC", loc, "speculate( ) may not follow speculate( )"};
      }
      if (committed) return BrokenRule{"D_SPEC_COMM", loc, "speculate( ) may not follow commit( )"};
      if (recorded) {
        return BrokenRule{"D_SPEC_DREC", loc,
                          "speculate( ) may not follow data-recording action(s)"};
      }
      speculating = true;
      continue;
    }
    if (actions[i].destructiveCall) {
      if (speculating) {
        return BrokenRule{"D_ACT_SPEC", loc, "destructive actions may not follow speculate( )"};
      }
      continue;
    }
    if (!kind) {
      if (speculating) {
        return BrokenRule{"D_AGG_SPEC", loc, "aggregating actions may not follow speculate( )"};
      }
      recorded = true;
      continue;
    }
    if (speculating && ir::isDestructive(*kind)) {
      return BrokenRule{"D_ACT_SPEC", loc, "destructive actions may not follow speculate( )"};
    }
    if (speculating && kind == ir::ActionKind::Exit) {
      return BrokenRule{"D_EXIT_SPEC", loc, "exit( ) may not follow speculate( )"};
    }
    if (!ir::recordsTracedData(*kind)) continue;
    if (committed) {
      return BrokenRule{"D_DREC_COMM", loc, "data-recording actions may not follow commit( )"};
    }
    if (!speculating) recorded = true;
  }
  return std::nullopt;
}

}  // namespace

// illumos checks each statement as dt_stmt_append adds it, walking the
// clause's actions so far: the first statement that makes the walk fail
// gives the error, so an aggregation after commit() is refused only once
// it is reached, after what lies between.
bool Checker::checkSpeculationRules(const ast::ProbeClause& clause) {
  std::vector<ClauseAction> actions;
  collect(clause.body, actions);
  for (size_t end = 1; end <= actions.size(); end++) {
    if (auto broken = firstBrokenRule(std::span(actions).first(end))) {
      return error(broken->tag, broken->loc, broken->message);
    }
  }
  return true;
}

}  // namespace dtrace::sema
