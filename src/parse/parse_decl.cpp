// Declarations: C declaration specifiers and declarators with D's additions
// (self/this storage, string, associative array keys), inline definitions,
// translators and provider definitions.
#include <algorithm>
#include <array>

#include "parse/parser_impl.h"

namespace dtrace::parse {

namespace {

bool hasTypeSpecifier(const ast::DeclSpec& spec) {
  return !spec.basicWords.empty() || !spec.typedefName.empty() || spec.structSpec || spec.enumSpec;
}

bool isBasicTypeWord(std::string_view w) {
  static constexpr std::array kWords = {"void",  "char",   "short",  "int",      "long",
                                        "float", "double", "signed", "unsigned", "string"};
  return std::find(kWords.begin(), kWords.end(), w) != kWords.end();
}

// Whether the specifiers so far name a type (not just attributes such as
// long or unsigned): a struct, union or enum after one is a second type.
bool namesType(const ast::DeclSpec& spec) {
  if (spec.structSpec || spec.enumSpec || !spec.typedefName.empty()) return true;
  for (const std::string& w : spec.basicWords) {
    if (w != "short" && w != "long" && w != "signed" && w != "unsigned") return true;
  }
  return false;
}

}  // namespace

void Parser::declareName(const ast::DeclSpec& spec, const std::string& name) {
  if (name.empty()) return;
  if (spec.storage == ast::StorageClass::Typedef) {
    typedefs_.insert(name);
    variables_.erase(name);
  } else {
    variables_.insert(name);
  }
}

bool Parser::parseDeclaration() {
  setMode(LexMode::Expr);
  ast::Declaration decl;
  decl.loc = tok().loc;
  if (!parseDeclSpecs(decl.spec, SpecContext::Declaration)) return false;
  if (!accept(";")) {
    for (;;) {
      ast::Declarator d;
      if (!parseDeclarator(d, DeclaratorKind::Named)) return false;
      if (decl.declarators.empty() && atPunct("{") && isFunction(d)) {
        // A C function definition, as system headers have (glibc's byte
        // swapping): D cannot call it, so only its declaration counts,
        // and that is not needed either.
        return skipFunctionBody();
      }
      declareName(decl.spec, d.name);
      decl.declarators.push_back(std::move(d));
      if (!accept(",")) break;
    }
    if (!expect(";")) return false;
  }
  result_.program.items.emplace_back(std::move(decl));
  return true;
}

bool Parser::isFunction(const ast::Declarator& d) {
  for (const ast::DeclaratorStep& step : d.steps) {
    if (step.kind == ast::DeclaratorStep::Kind::Function) return true;
  }
  return false;
}

// From its `{` to its matching `}`.
bool Parser::skipFunctionBody() {
  int depth = 0;
  do {
    if (tok().kind == TokKind::End) return syntaxError();
    if (atPunct("{")) depth++;
    if (atPunct("}")) depth--;
    advance();
  } while (depth > 0);
  return true;
}

// inline type name = expression;
bool Parser::parseInline() {
  ast::InlineDecl in;
  in.loc = tok().loc;
  advance();
  setMode(LexMode::Expr);
  if (!parseDeclSpecs(in.spec, SpecContext::Declaration)) return false;
  if (!parseDeclarator(in.declarator, DeclaratorKind::Named)) return false;
  if (!expect("=")) return false;
  in.value = parseAssignment();
  if (!in.value || !expect(";")) return false;
  variables_.insert(in.declarator.name);
  result_.program.items.emplace_back(std::move(in));
  return true;
}

// translator output_type < input_type name > { member = expression; ... };
bool Parser::parseTranslator() {
  ast::TranslatorDecl xl;
  xl.loc = tok().loc;
  advance();
  setMode(LexMode::Expr);
  xl.output = parseTypeName();
  if (!xl.output || !expect("<")) return false;
  xl.input = parseTypeName();
  if (!xl.input) return false;
  if (tok().kind != TokKind::Ident) return syntaxError();
  xl.inputName = tok().text;
  advance();
  if (!expect(">") || !expect("{")) return false;
  while (!atPunct("}")) {
    ast::TranslatorDecl::Member m;
    m.loc = tok().loc;
    if (tok().kind != TokKind::Ident) return syntaxError();
    m.name = tok().text;
    advance();
    if (!expect("=")) return false;
    m.value = parseAssignment();
    if (!m.value || !expect(";")) return false;
    xl.members.push_back(std::move(m));
  }
  if (!expect("}")) return false;
  xl.endLoc = tok().loc;
  if (!expect(";")) return false;
  result_.program.items.emplace_back(std::move(xl));
  return true;
}

// provider name { probe name(args) [: (args)]; ... };
bool Parser::parseProvider() {
  ast::ProviderDecl provider;
  provider.loc = tok().loc;
  advance();
  setMode(LexMode::Expr);
  if (tok().kind != TokKind::Ident) return syntaxError();
  provider.name = tok().text;
  advance();
  if (!expect("{")) return false;
  while (!atPunct("}")) {
    if (!atKeyword("probe")) return syntaxError();
    ast::ProviderProbeDecl probe;
    probe.loc = tok().loc;
    advance();
    if (tok().kind != TokKind::Ident) return syntaxError();
    probe.name = tok().text;
    advance();
    ast::DeclaratorStep native;
    if (!atPunct("(")) return syntaxError();
    if (!parseFunctionSuffix(native)) return false;
    probe.nativeArgs = std::move(native.params);
    probe.nativeVarargs = native.varargs;
    if (accept(":")) {
      ast::DeclaratorStep translated;
      if (!atPunct("(")) return syntaxError();
      if (!parseFunctionSuffix(translated)) return false;
      probe.hasTranslated = true;
      probe.translatedArgs = std::move(translated.params);
      probe.translatedVarargs = translated.varargs;
    }
    if (!expect(";")) return false;
    provider.probes.push_back(std::move(probe));
  }
  if (!expect("}") || !expect(";")) return false;
  result_.program.items.emplace_back(std::move(provider));
  return true;
}

bool Parser::parseDeclSpecs(ast::DeclSpec& spec, SpecContext ctx) {
  using ast::StorageClass;
  spec.loc = tok().loc;
  bool any = false;
  while (!failed()) {
    const Token& t = tok();
    if (t.kind == TokKind::Ident) {
      if (hasTypeSpecifier(spec) || !isTypeIdent(t)) break;
      spec.typedefName = t.text;
      advance();
      any = true;
      continue;
    }
    if (t.kind != TokKind::Keyword) break;
    const std::string& k = t.text;
    StorageClass storage = StorageClass::None;
    if (k == "typedef") storage = StorageClass::Typedef;
    if (k == "extern") storage = StorageClass::Extern;
    if (k == "static") storage = StorageClass::Static;
    if (k == "register") storage = StorageClass::Register;
    if (k == "auto") storage = StorageClass::Auto;
    if (k == "self") storage = StorageClass::Self;
    if (k == "this") storage = StorageClass::This;
    if (storage != StorageClass::None) {
      bool dOnly = storage == StorageClass::Self || storage == StorageClass::This;
      if (ctx == SpecContext::TypeName || (dOnly && ctx != SpecContext::Declaration)) break;
      if (spec.storage != StorageClass::None) {  // dt_decl_class
        error("D_DECL_CLASS", t.loc, "only one storage class allowed in a declaration");
        return false;
      }
      spec.storage = storage;
    } else if (k == "const") {
      spec.isConst = true;
    } else if (k == "volatile") {
      spec.isVolatile = true;
    } else if (k == "restrict") {
      spec.isRestrict = true;
    } else if (isBasicTypeWord(k)) {
      spec.basicWords.push_back(k);
    } else if (k == "struct" || k == "union") {
      if (!parseStructSpec(spec)) return false;
      any = true;
      continue;
    } else if (k == "enum") {
      if (!parseEnumSpec(spec)) return false;
      any = true;
      continue;
    } else {
      break;
    }
    advance();
    any = true;
  }
  if (!any) return syntaxError();
  return !failed();
}

bool Parser::parseStructSpec(ast::DeclSpec& spec) {
  auto sou = std::make_shared<ast::StructSpec>();
  sou->loc = tok().loc;
  sou->isUnion = tok().text == "union";
  advance();
  if (tok().kind == TokKind::Ident) {
    sou->tag = tok().text;
    advance();
  }
  sou->specLoc = tok().loc;
  if (namesType(spec)) {  // dt_decl_spec: e.g. a struct definition without its ";"
    error("D_DECL_COMBO", sou->specLoc, "invalid type combination");
    return false;
  }
  if (accept("{")) {
    sou->hasBody = true;
    do {
      ast::DeclSpec memberSpec;
      if (!parseDeclSpecs(memberSpec, SpecContext::TypeName)) return false;
      for (;;) {
        ast::StructMember m;
        m.loc = tok().loc;
        m.spec = memberSpec;
        if (!atPunct(":") && !parseDeclarator(m.declarator, DeclaratorKind::Named)) return false;
        if (accept(":")) {
          m.bitWidth = parseConditional();
          if (!m.bitWidth) return false;
        }
        sou->members.push_back(std::move(m));
        if (!accept(",")) break;
      }
      if (!expect(";")) return false;
    } while (!atPunct("}") && !failed());
    if (!expect("}")) return false;
  } else if (sou->tag.empty()) {
    return syntaxError();
  }
  spec.structSpec = std::move(sou);
  return true;
}

bool Parser::parseEnumSpec(ast::DeclSpec& spec) {
  auto en = std::make_shared<ast::EnumSpec>();
  en->loc = tok().loc;
  advance();
  if (tok().kind == TokKind::Ident) {
    en->tag = tok().text;
    advance();
  }
  en->specLoc = tok().loc;
  if (namesType(spec)) {
    error("D_DECL_COMBO", en->specLoc, "invalid type combination");
    return false;
  }
  if (accept("{")) {
    en->hasBody = true;
    for (;;) {
      if (tok().kind != TokKind::Ident) return syntaxError();
      ast::EnumMember m;
      m.name = tok().text;
      m.loc = tok().loc;
      advance();
      if (accept("=")) {
        m.value = parseConditional();
        if (!m.value) return false;
      }
      en->members.push_back(std::move(m));
      if (!accept(",") || atPunct("}")) break;  // C99 allows a trailing comma
    }
    if (!expect("}")) return false;
  } else if (en->tag.empty()) {
    return syntaxError();
  }
  spec.enumSpec = std::move(en);
  return true;
}

// C declarators. Steps are collected base type first: the pointers written
// before the name apply first, then the array/function suffixes from the
// right, then whatever a parenthesised inner declarator adds.
bool Parser::parseDeclarator(ast::Declarator& d, DeclaratorKind kind) {
  std::vector<ast::DeclaratorStep> steps;
  d.loc = tok().loc;
  while (atPunct("*")) {
    advance();
    ast::DeclaratorStep ptr;
    ptr.kind = ast::DeclaratorStep::Kind::Pointer;
    for (;;) {
      if (atKeyword("const")) {
        ptr.isConst = true;
      } else if (atKeyword("volatile")) {
        ptr.isVolatile = true;
      } else if (atKeyword("restrict")) {
        ptr.isRestrict = true;
      } else {
        break;
      }
      advance();
    }
    steps.push_back(std::move(ptr));
  }

  ast::Declarator inner;
  const Token& t = tok();
  if (t.kind == TokKind::Ident && kind != DeclaratorKind::Abstract) {
    d.name = t.text;
    d.loc = t.loc;
    advance();
  } else if (isPunct(t, "(")) {
    // '(' opens a nested declarator, unless (in an abstract declarator) it
    // is a function's parameter list.
    const Token& next = peek();
    bool nested =
        kind == DeclaratorKind::Named || isPunct(next, "*") || isPunct(next, "(") ||
        isPunct(next, "[") ||
        (kind == DeclaratorKind::Either && next.kind == TokKind::Ident && !isTypeIdent(next));
    if (nested) {
      advance();
      if (!parseDeclarator(inner, kind) || !expect(")")) return false;
      d.name = inner.name;
      d.loc = inner.loc;
    }
  } else if (kind == DeclaratorKind::Named) {
    return syntaxError();
  }
  if (failed()) return false;

  std::vector<ast::DeclaratorStep> suffixes;
  for (;;) {
    ast::DeclaratorStep s;
    if (atPunct("[")) {
      if (!parseArraySuffix(s)) return false;
    } else if (atPunct("(")) {
      if (!parseFunctionSuffix(s)) return false;
    } else {
      break;
    }
    suffixes.push_back(std::move(s));
  }
  if (failed()) return false;
  for (auto it = suffixes.rbegin(); it != suffixes.rend(); ++it) steps.push_back(std::move(*it));
  for (auto& s : inner.steps) steps.push_back(std::move(s));
  d.steps = std::move(steps);
  return true;
}

// [ ], [ size ], or D's [ key-type, ... ] for associative arrays.
bool Parser::parseArraySuffix(ast::DeclaratorStep& step) {
  step.kind = ast::DeclaratorStep::Kind::Array;
  advance();  // [
  if (accept("]")) return true;
  if (startsTypeName(tok())) {
    for (;;) {
      auto key = std::make_shared<ast::TypeName>();
      key->loc = tok().loc;
      if (!parseDeclSpecs(key->spec, SpecContext::Parameter)) return false;
      if (!atPunct(",") && !atPunct("]") &&
          !parseDeclarator(key->declarator, DeclaratorKind::Either)) {
        return false;
      }
      step.arrayKeys.push_back(std::move(key));
      if (!accept(",")) break;
    }
  } else {
    step.arraySize = parseConditional();
    if (!step.arraySize) return false;
  }
  return expect("]");
}

// ( ), ( void ), ( params ), ( params, ... ), ( ... )
bool Parser::parseFunctionSuffix(ast::DeclaratorStep& step) {
  step.kind = ast::DeclaratorStep::Kind::Function;
  advance();  // (
  if (accept(")")) return true;
  for (;;) {
    if (accept("...")) {
      step.varargs = true;
      break;
    }
    auto param = std::make_shared<ast::ParamDecl>();
    if (!parseDeclSpecs(param->spec, SpecContext::Parameter)) return false;
    if (!atPunct(",") && !atPunct(")") &&
        !parseDeclarator(param->declarator, DeclaratorKind::Either)) {
      return false;
    }
    step.params.push_back(std::move(param));
    if (!accept(",")) break;
  }
  return expect(")");
}

std::shared_ptr<ast::TypeName> Parser::parseTypeName() {
  auto tn = std::make_shared<ast::TypeName>();
  tn->loc = tok().loc;
  if (!parseDeclSpecs(tn->spec, SpecContext::TypeName)) return nullptr;
  if (atPunct("*") || atPunct("(") || atPunct("[")) {
    if (!parseDeclarator(tn->declarator, DeclaratorKind::Abstract)) return nullptr;
  }
  return tn;
}

}  // namespace dtrace::parse
