// D's inline names and translators: `inline int MAX = 10;`,
// `translator psinfo_t < struct task_struct *T > { pr_pid = T->tgid; };`
// and `xlate <psinfo_t *> (curthread)->pr_pid`. A translated member is the
// translator's expression for it, evaluated with T bound to the input.
#include "sema/checker.h"

namespace dtrace::sema {

using ast::Expr;

namespace {
std::string quoted(const Type* t) { return "\"" + t->name + "\""; }
}  // namespace

bool Checker::checkInline(ast::InlineDecl& decl) {
  const Type* t = resolveDeclared(decl.spec, decl.declarator);
  if (!t) return false;
  const std::string& name = decl.declarator.name;
  if (defs_.inlines.count(name) || symbols_.findGlobal(name) ||
      symbols_.findBuiltin(name, types_) || isFunctionName(name)) {
    return error("D_DECL_IDRED", decl.loc, "identifier redeclared: " + name);
  }
  const Type* vt = expr(*decl.value);
  if (!vt) return false;
  if (!assignable(t, *decl.value) && !(t->isPointer() && vt->isPointer())) {
    return error("D_OP_INCOMPAT", decl.loc,
                 "inline " + name + " definition uses incompatible types: " + quoted(t) + " = " +
                     quoted(vt));
  }
  if (decl.value->constValue && t->isInteger()) {
    // The constant as the inline's type holds it.
    int64_t v = *decl.value->constValue;
    if (t->size < 8) {
      const uint64_t mask = (uint64_t{1} << (t->size * 8)) - 1;
      uint64_t u = static_cast<uint64_t>(v) & mask;
      if (t->isSigned && (u >> (t->size * 8 - 1)) & 1) u |= ~mask;
      v = static_cast<int64_t>(u);
    }
    decl.value->constValue = v;
  }
  defs_.inlines[name] = {t, decl.value.get()};
  return true;
}

bool Checker::checkTranslator(ast::TranslatorDecl& decl) {
  const Type* output = types_.complete(resolveTypeName(*decl.output));
  const Type* input = resolveTypeName(*decl.input);
  if (!output || !input) return false;
  if (!output->isStruct()) {
    return error("D_XLATE_SOU", decl.loc,
                 "translator output type must be a struct or union: " + quoted(output));
  }
  if (!output->complete) {
    return error("D_XLATE_SOU", decl.loc, "incomplete struct/union/enum " + output->name);
  }
  Variable& in = defs_.translatorInputs.emplace_back();
  in.kind = Variable::Kind::TranslatorInput;
  in.name = decl.inputName;
  in.type = input;
  in.loc = decl.loc;
  Translator tr{output, input, &in, {}};
  // The input's name is visible in the member expressions only.
  for (auto& m : decl.members) {
    const Member* om = types_.findMember(output, m.name);
    if (!om) {
      return error("D_XLATE_MEMB", m.loc,
                   "translator member " + m.name + " is not a member of " + output->name);
    }
    translatorScope_ = &in;
    const Type* mt = expr(*m.value);
    translatorScope_ = nullptr;
    if (!mt) return false;
    const bool stringMember = om->type->isCharArray() || om->type->isString();
    if (stringMember ? !(mt->isString() || mt->isCharArray()) : !assignable(om->type, *m.value)) {
      return error("D_XLATE_INCOMPAT", m.loc,
                   "translator member " + m.name + " definition uses incompatible types: " +
                       quoted(om->type) + " = " + quoted(mt));
    }
    tr.members.emplace(m.name, m.value.get());  // a member given twice: the first counts
  }
  for (const Translator& old : defs_.translators) {
    if (old.output == output && old.input == input) {
      return error("D_XLATE_REDECL", decl.loc,
                   "translator from " + input->name + " to " + output->name +
                       " has already "
                       "been declared");
    }
  }
  defs_.translators.push_back(std::move(tr));
  return true;
}

// xlate <T> (x) and xlate <T *> (x): only members of the result are values.
const Type* Checker::xlate(Expr& e) {
  const Type* to = resolveTypeName(*e.typeName);
  const Type* from = expr(*e.operands[0]);
  if (!to || !from) return nullptr;
  const Type* output = to->isPointer() ? to->target : to;
  for (const Translator& t : defs_.translators) {
    if (t.output != output) continue;
    const bool matches = t.input == from ||
                         (t.input->isPointer() && from->isPointer() &&
                          (t.input->target == from->target || from->target->isVoid())) ||
                         (t.input->isInteger() && from->isInteger());
    if (!matches) continue;
    e.translator = &t;
    // xlate<T>(x) is a whole struct; xlate<T *>(x) points at one.
    if (!to->isPointer()) e.translation = &e;
    return to;
  }
  error("D_XLATE_NONE", e.loc, "cannot translate from " + quoted(from) + " to " + quoted(to));
  return nullptr;
}

const Type* Checker::translatedMember(Expr& e, const Expr& xlateExpr, bool pointerForm) {
  const Type* to = xlateExpr.type;
  if (e.isArrow != pointerForm) {
    error("D_OP_PTR", e.loc,
          std::string("operator ") + (e.isArrow ? "->" : ".") + " cannot be applied to " +
              quoted(pointerForm       ? to
                     : to->isPointer() ? to->target
                                       : to));
    return nullptr;
  }
  const Type* output = to->isPointer() ? to->target : to;
  const Type* from = xlateExpr.operands[0]->type;
  for (const Translator& t : defs_.translators) {
    if (t.output != output) continue;
    // The translator xlate chose, when it chose one (several may make one
    // output from different inputs: ipinfo_t from an sk_buff or a sock).
    if (xlateExpr.translator && &t != xlateExpr.translator) continue;
    auto it = t.members.find(e.text);
    if (it == t.members.end()) continue;
    const bool matches = t.input == from ||
                         (t.input->isPointer() && from->isPointer() &&
                          (t.input->target == from->target || from->target->isVoid() ||
                           t.input->target->isVoid())) ||
                         (t.input->isInteger() && from->isInteger());
    if (!matches) continue;
    e.translatedMember = it->second;
    e.translatorInput = xlateExpr.operands[0].get();
    e.variable = t.inputVariable;
    const Member* om = types_.findMember(output, e.text);
    const Type* valueType = it->second->type;
    if (valueType->isString() || valueType->isCharArray()) return valueType;
    return om->type;
  }
  error("D_XLATE_NOCONV", e.loc, "translator does not define conversion for member: " + e.text);
  return nullptr;
}

}  // namespace dtrace::sema
