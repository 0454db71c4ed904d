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

// What an identifier already names, as dt_idkind_name says it ("function",
// "scalar inline"); empty when it names nothing.
std::string Checker::identifierKind(const std::string& name) {
  if (auto it = defs_.inlines.find(name); it != defs_.inlines.end()) {
    return it->second.params.empty() ? "scalar inline" : "associative array inline";
  }
  if (const Variable* v = symbols_.findGlobal(name)) {
    return v->kind == Variable::Kind::Associative ? "associative array " : "scalar ";
  }
  if (builtinVariable(name)) return "scalar ";
  if (isActionName(name)) return "tracing function ";
  if (isAggregatingFunction(name)) return "aggregating function ";
  if (isFunctionName(name)) return "function ";
  return "";
}

std::string Checker::attributesTarget(const ast::Pragma& pragma) {
  if (pragma.words.size() < 3 || pragma.words[0] != "attributes") return "";
  std::string name = pragma.words[2];
  while (!name.empty() && name.back() == ';') name.pop_back();  // a ";" token after it
  return name;
}

bool Checker::checkAttributesPragma(const ast::Pragma& pragma) {
  const std::string name = attributesTarget(pragma);
  if (name.empty() || name == "provider") return true;  // providers: checked with the catalog
  if (builtinVariable(name) || isFunctionName(name)) {
    return error("D_PRAGMA_SCOPE", pragma.loc,
                 "#pragma attributes cannot modify entity defined outside program scope");
  }
  if (identifierKind(name).empty()) pendingAttributes_.push_back(&pragma);
  return true;
}

bool Checker::checkInline(ast::InlineDecl& decl) {
  // An inline array (inline int sum[int x, int y] = x + y): the value's
  // type is the element's, and its parameters are names in the value.
  std::vector<ast::DeclaratorStep>& steps = decl.declarator.steps;
  std::vector<std::shared_ptr<ast::TypeName>> keys;
  const Type* t = nullptr;
  if (!steps.empty() && steps.back().kind == ast::DeclaratorStep::Kind::Array &&
      !steps.back().arrayKeys.empty()) {
    keys = steps.back().arrayKeys;
    ast::DeclaratorStep array = std::move(steps.back());
    steps.pop_back();
    t = resolveDeclared(decl.spec, decl.declarator);
    steps.push_back(std::move(array));
  } else {
    t = resolveDeclared(decl.spec, decl.declarator);
  }
  if (!t) return false;
  const std::string& name = decl.declarator.name;
  // dt_node_inline's message: the kind, then "inline" if it is one.
  if (std::string previous = identifierKind(name); !previous.empty()) {
    return error("D_DECL_IDRED", decl.loc,
                 "identifier redefined: " + name +
                     "\n\t current: inline definition\n\tprevious: " + previous);
  }
  std::vector<const Variable*> params;
  for (const auto& key : keys) {
    const Type* kt = resolveTypeName(*key);
    if (!kt) return false;
    if (!kt->isScalar()) {
      return error("D_DECL_PROTO_TYPE", key->loc,
                   "inline array parameters other than integers and pointers are not "
                   "supported yet: " +
                       kt->name);
    }
    Variable& param = defs_.translatorInputs.emplace_back();
    param.kind = Variable::Kind::TranslatorInput;
    param.name = key->declarator.name;
    param.type = kt;
    param.loc = key->loc;
    params.push_back(&param);
  }
  if (!params.empty() && !t->isScalar()) {
    return error("D_DECL_PROTO_TYPE", decl.loc,
                 "inline arrays of values other than integers and pointers are not supported "
                 "yet: " +
                     name);
  }
  inlineScope_ = &params;
  const Type* vt = expr(*decl.value);
  inlineScope_ = nullptr;
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
  defs_.inlines[name] = {t, decl.value.get(), std::move(params)};
  return true;
}

// name[k1, k2]: the inline's value with its parameters bound to the keys.
const Type* Checker::inlineArrayRead(Expr& e) {
  const std::string& name = e.operands[0]->text;
  const Definitions::Inline& in = defs_.inlines.find(name)->second;
  const size_t n = e.operands.size() - 1;
  if (n != in.params.size()) {
    error("D_PROTO_LEN", e.loc,
          name + "[ ] prototype mismatch: " + std::to_string(n) + " key" + (n == 1 ? "" : "s") +
              " passed, " + std::to_string(in.params.size()) + " expected");
    return nullptr;
  }
  for (size_t i = 0; i < n; i++) {
    const Type* kt = expr(*e.operands[i + 1]);
    if (!kt) return nullptr;
    if (!assignable(in.params[i]->type, *e.operands[i + 1])) {
      error("D_PROTO_ARG", e.operands[i + 1]->loc, keyMismatch(name, i, in.params[i]->type, kt));
      return nullptr;
    }
  }
  e.inlineValue = in.value;
  e.inlineParams = in.params;
  return in.type;
}

bool Checker::checkTranslator(ast::TranslatorDecl& decl) {
  const Type* output = types_.complete(resolveTypeName(*decl.output));
  const Type* input = resolveTypeName(*decl.input);
  if (!output || !input) return false;
  // dt_node_xlator's checks, in its order, made once the whole translator
  // is read (on the line of its closing ";").
  for (const Translator& old : defs_.translators) {
    if (old.output == output && old.input == input) {
      return error(
          "D_XLATE_REDECL", decl.endLoc,
          "translator from " + input->name + " to " + output->name + " has already been declared");
    }
  }
  if (output->isStruct() && !output->complete) {
    return error("D_XLATE_SOU", decl.endLoc, "incomplete struct/union/enum " + output->name);
  }
  if (!output->isStruct()) {
    return error("D_XLATE_SOU", decl.endLoc,
                 "translator output type must be a struct or union: " + quoted(output));
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
      return error("D_XLATE_MEMB", decl.endLoc,
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
    // The output's member type (illumos cooks a translated member with the
    // output struct's type): a char array holds what fits, NUL included;
    // a D string member takes the string its value gives.
    const Type* valueType = it->second->type;
    if (om->type->isString() && (valueType->isString() || valueType->isCharArray())) {
      return valueType;
    }
    return om->type;
  }
  error("D_XLATE_NOCONV", e.loc, "translator does not define conversion for member: " + e.text);
  return nullptr;
}

}  // namespace dtrace::sema
