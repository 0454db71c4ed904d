// args[] typed by the probes a clause's descriptions stand for, uregs[] and
// its register constants, and the new scalar built-ins' types.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "parse/parser.h"
#include "sema/checker.h"

namespace dtrace::sema {
namespace {

// Describes every description of every clause the same way.
class FakeArgs : public Checker::ArgsSource {
 public:
  std::vector<Checker::DescriptionArgs> argsOf(const ast::ProbeClause& clause) override {
    asked++;
    std::vector<Checker::DescriptionArgs> out;
    for (const ast::ProbeSpec& spec : clause.probes) {
      auto it = byText.find(spec.text);
      out.push_back(it != byText.end() ? it->second
                                       : Checker::DescriptionArgs{spec.text, false, {}});
    }
    return out;
  }
  std::map<std::string, Checker::DescriptionArgs> byText;
  int asked = 0;
};

class BuiltinsTest : public ::testing::Test {
 protected:
  BuiltinsTest() {
    args.byText["syscall::write:entry"] = {
        "syscall::write:entry",
        true,
        {{"unsigned int", 4, false}, {"const char *", 8, false}, {"size_t", 8, false}}};
    args.byText["syscall::close:entry"] = {
        "syscall::close:entry", true, {{"unsigned int", 4, false}}};
    args.byText["syscall::open:entry"] = {
        "syscall::open:entry", true, {{"const char *", 8, false}, {"int", 4, true}}};
  }

  // "" when `src` checks, else "[TAG] message" of the first error.
  std::string check(const std::string& src) {
    parse::ParseOptions po;
    po.isTypeName = [this](std::string_view n, bool) { return types.isTypeName(n); };
    parse::ParseResult parsed = parse::parseProgram(src, po);
    if (!parsed.diags.empty()) return "parse error";
    programs.push_back(std::make_unique<ast::Program>(std::move(parsed.program)));
    Diagnostics diags;
    Checker checker(types, symbols, macros, diags);
    checker.prepareBuiltins(*programs.back(), &args);
    checker.check(*programs.back());
    if (diags.empty()) return "";
    return "[" + diags.first().tag + "] " + diags.first().message;
  }
  // The type of a new variable after `desc { v = expr; }`.
  std::string typeOf(const std::string& desc, const std::string& expr) {
    const std::string name = "v" + std::to_string(++variables);
    const std::string err = check(desc + " { " + name + " = " + expr + "; }");
    if (!err.empty()) return err;
    const Variable* v = symbols.findGlobal(name);
    return v && v->type ? v->type->name : "<none>";
  }

  TypeTable types;
  SymbolTable symbols;
  MacroTable macros;
  FakeArgs args;
  std::vector<std::unique_ptr<ast::Program>> programs;
  int variables = 0;
};

TEST_F(BuiltinsTest, ArgsTakeTheProbesTypes) {
  EXPECT_EQ(typeOf("syscall::write:entry", "args[0]"), "unsigned int");
  EXPECT_EQ(typeOf("syscall::write:entry", "args[1]"), "char *");
  EXPECT_EQ(typeOf("syscall::write:entry", "args[2]"), "unsigned long");
}

TEST_F(BuiltinsTest, ArgsAreDescribedOncePerClause) {
  EXPECT_EQ(check("syscall::write:entry { x = args[0] + args[2]; y = args[1]; }"), "");
  EXPECT_EQ(args.asked, 1);
  EXPECT_EQ(check("syscall::write:entry { x = arg0; }"), "");
  EXPECT_EQ(args.asked, 1);
}

TEST_F(BuiltinsTest, DescriptionsOfAClauseMustAgreeOnATypeUsed) {
  EXPECT_EQ(check("syscall::write:entry, syscall::close:entry { x = args[0]; }"), "");
  EXPECT_EQ(check("syscall::write:entry, syscall::open:entry { trace(args[0]); }"),
            "[D_ARGS_MULTI] args[0] is unsigned int for syscall::write:entry but char * for "
            "syscall::open:entry: use one clause per description");
}

TEST_F(BuiltinsTest, ArgsErrorsAreDTraces) {
  EXPECT_EQ(check("syscall::close:entry { x = args[1]; }"),
            "[D_ARGS_IDX] index 1 is out of range for syscall::close:entry args[ ]");
  EXPECT_EQ(check("syscall::close:entry { x = args[-1]; }"),
            "[D_ARGS_IDX] index -1 is out of range for syscall::close:entry args[ ]");
  EXPECT_EQ(check("syscall:::entry { x = args[0]; }"),
            "[D_ARGS_MULTI] args[ ] may not be referenced because probe description "
            "syscall:::entry matches an unstable set of probes");
  EXPECT_EQ(check("syscall::close:entry { x = args[arg0]; }"),
            "[D_PROTO_ARG] args[ ] argument #1 is incompatible with prototype:\n\tprototype: "
            "integer constant\n\t argument: long long");
  EXPECT_EQ(check("syscall::close:entry { x = args[0, 1]; }"),
            "[D_PROTO_LEN] args[ ] prototype mismatch: 2 args passed, 1 expected");
  EXPECT_EQ(check("syscall::close:entry { args[0] = 1; }").substr(0, 12), "[D_OP_WRITE]");
  EXPECT_EQ(check("int args;"), "[D_DECL_IDRED] built-in identifier redeclared: args");
}

// A translated argument: args[n] has the translated type and stands for
// the translator applied to the native argument it comes from.
class TranslatedArgsTest : public BuiltinsTest {
 protected:
  TranslatedArgsTest() {
    args.byText["p:::task"] = {"p:::task", true, {{"struct in *", 8, false, "out_t *"}}};
    args.byText["q:::task"] = {"q:::task", true, {{"struct in *", 8, false, "out_t *"}}};
    args.byText["r:::other"] = {"r:::other", true, {{"struct in2 *", 8, false, "out_t *"}}};
    args.byText["p:::path"] = {"p:::path", true, {{"char *", 8, false, "string"}}};
    // `probe p(char *s, int n) : (int n)`: args[0] is native argument 1.
    args.byText["p:::reordered"] = {
        "p:::reordered", true, {{"char *", 8, false, "int", 1}, {"int", 4, true}}};
  }
  // The clause, after the translators and (once: the fixture's type table
  // outlives each check, its translators do not) their types.
  std::string withTranslator(const std::string& clause) {
    const std::string types =
        std::exchange(declared, true)
            ? ""
            : "struct in { int a; }; struct in2 { int a; }; typedef struct out { int b; } out_t;\n";
    return types +
           "translator out_t < struct in *I > { b = I->a * 2; };\n"
           "translator out_t < struct in2 *I > { b = I->a * 3; };\n" +
           clause;
  }
  bool declared = false;
};

TEST_F(TranslatedArgsTest, MembersComeFromTheTranslator) {
  EXPECT_EQ(check(withTranslator("p:::task { v = args[0]->b; }")), "");
  EXPECT_EQ(symbols.findGlobal("v")->type->name, "int");
  EXPECT_EQ(check(withTranslator("p:::task { trace(args[0]->nothing); }")),
            "[D_XLATE_NOCONV] translator does not define conversion for member: nothing");
}

TEST_F(TranslatedArgsTest, StringsAndScalarsConvert) {
  EXPECT_EQ(typeOf("p:::path", "args[0]"), "string");
  EXPECT_EQ(typeOf("p:::reordered", "args[0]"), "int");
}

TEST_F(TranslatedArgsTest, DescriptionsMustTranslateFromOneType) {
  EXPECT_EQ(check(withTranslator("p:::task, q:::task { trace(args[0]->b); }")), "");
  EXPECT_EQ(check(withTranslator("p:::task, r:::other { trace(args[0]->b); }")),
            "[D_ARGS_MULTI] args[0] is translated from struct in * for p:::task but from "
            "struct in2 * for r:::other: use one clause per description");
}

TEST_F(BuiltinsTest, UregsTakeRegisterConstants) {
  EXPECT_EQ(typeOf("BEGIN", "uregs[R_PC]"), "unsigned long long");
  EXPECT_EQ(typeOf("BEGIN", "uregs[R_R15 + 1]"), "unsigned long long");
  // An index past the registers is an illegal operation at run time.
  EXPECT_EQ(typeOf("BEGIN", "uregs[99]"), "unsigned long long");
  // Only an integer constant (dt_idcook_regs).
  EXPECT_EQ(check("BEGIN { x = uregs[arg0]; }"),
            "[D_PROTO_ARG] uregs[ ] argument #1 is incompatible with prototype:\n\tprototype: "
            "integer constant\n\t argument: long long");
  EXPECT_EQ(check("BEGIN { x = uregs[\"pc\"]; }"),
            "[D_PROTO_ARG] uregs[ ] argument #1 is incompatible with prototype:\n\tprototype: "
            "integer constant\n\t argument: string");
  EXPECT_EQ(check("BEGIN { x = uregs[33]; }"), "");
  EXPECT_EQ(check("BEGIN { x = uregs[R_TRAPNO]; }"),
            "[D_REGS_IDX] uregs[R_TRAPNO] is not available: Linux saves no such register for "
            "a user thread");
  EXPECT_EQ(check("BEGIN { x = uregs[-1]; }"),
            "[D_REGS_IDX] index -1 is out of range for array uregs");
  EXPECT_EQ(check("BEGIN { R_PC = 1; }").substr(0, 12), "[D_OP_WRITE]");
}

TEST_F(BuiltinsTest, RegisterConstantsAreIllumosAmd64Numbers) {
  EXPECT_EQ(registerConstant("R_GS"), 0);
  EXPECT_EQ(registerConstant("R_PC"), 14);
  EXPECT_EQ(registerConstant("R_SP"), 17);
  EXPECT_EQ(registerConstant("R_R0"), 11);
  EXPECT_EQ(registerConstant("R_R15"), 19);
  EXPECT_EQ(registerConstant("R_RAX"), 33);
  EXPECT_EQ(registerConstant("R_RIP"), 36);
  EXPECT_EQ(registerConstant("R_RSP"), 39);
  EXPECT_EQ(registerConstant("R_NOPE"), -1);
  ASSERT_NE(userRegister(registerConstant("R_RAX")), nullptr);
  EXPECT_STREQ(userRegister(registerConstant("R_RAX"))->ptRegsMember, "ax");
  EXPECT_STREQ(userRegister(registerConstant("R_PC"))->ptRegsMember, "ip");
  EXPECT_EQ(userRegister(registerConstant("R_DS"))->ptRegsMember, nullptr);
  EXPECT_EQ(userRegister(47), nullptr);
}

TEST_F(BuiltinsTest, ScalarBuiltinsHaveDTracesTypes) {
  EXPECT_EQ(typeOf("BEGIN", "caller"), "unsigned long");        // uintptr_t
  EXPECT_EQ(typeOf("BEGIN", "ucaller"), "unsigned long long");  // uint64_t
  EXPECT_EQ(typeOf("BEGIN", "stackdepth"), "unsigned int");     // uint32_t
  EXPECT_EQ(typeOf("BEGIN", "ustackdepth"), "unsigned int");
  EXPECT_EQ(typeOf("BEGIN", "ipl"), "unsigned int");  // uint_t
  EXPECT_EQ(typeOf("BEGIN", "cwd"), "string");
  EXPECT_EQ(typeOf("BEGIN", "root"), "string");
}

}  // namespace
}  // namespace dtrace::sema
