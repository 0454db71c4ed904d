// Declarations: C declarators, structs, enums, typedefs, D storage classes,
// associative arrays, inline definitions and translators.
#include <gtest/gtest.h>

#include "parse_test_util.h"

namespace dtrace::parse::testing {
namespace {

TEST(ParseDecl, ScalarsAndMultipleDeclarators) {
  EXPECT_EQ(dump("int x;"), "(declaration int (decl x))\n");
  EXPECT_EQ(dump("int a, *b;"), "(declaration int (decl a) (decl b *))\n");
  EXPECT_EQ(dump("unsigned long long z;"), "(declaration unsigned long long (decl z))\n");
  EXPECT_EQ(dump("string s;"), "(declaration string (decl s))\n");
  EXPECT_EQ(dump("extern int k;"), "(declaration extern int (decl k))\n");
  EXPECT_EQ(dump("static const volatile char c;"),
            "(declaration static const volatile char (decl c))\n");
  EXPECT_EQ(dump("uint64_t u;"), "(declaration uint64_t (decl u))\n");
}

TEST(ParseDecl, SelfAndThisStorage) {
  EXPECT_EQ(dump("self int x;"), "(declaration self int (decl x))\n");
  EXPECT_EQ(dump("this char c;"), "(declaration this char (decl c))\n");
  EXPECT_EQ(dump("self uint64_t ts[int];"), "(declaration self uint64_t (decl ts [(type int)]))\n");
  auto r = parse("self int x;");
  ASSERT_TRUE(r.diags.empty());
  EXPECT_EQ(std::get<ast::Declaration>(r.program.items[0]).spec.storage, ast::StorageClass::Self);
}

TEST(ParseDecl, Pointers) {
  EXPECT_EQ(dump("char **pp;"), "(declaration char (decl pp * *))\n");
  EXPECT_EQ(dump("int * const p;"), "(declaration int (decl p *const))\n");
  EXPECT_EQ(dump("int * volatile * restrict p;"),
            "(declaration int (decl p *volatile *restrict))\n");
  EXPECT_EQ(dump("int*x;"), "(declaration int (decl x *))\n");
}

TEST(ParseDecl, ArraysInnermostFirst) {
  // int *a[4]: array of 4 pointers to int -> steps Pointer, Array(4).
  EXPECT_EQ(dump("int *a[4];"), "(declaration int (decl a * [4]))\n");
  // int a[2][3]: array of 2 arrays of 3 ints -> Array(3), Array(2).
  EXPECT_EQ(dump("int a[2][3];"), "(declaration int (decl a [3] [2]))\n");
  EXPECT_EQ(dump("int (*pa)[4];"), "(declaration int (decl pa [4] *))\n");
  EXPECT_EQ(dump("int a[];"), "(declaration int (decl a []))\n");
  EXPECT_EQ(dump("int a[2 * 8];"), "(declaration int (decl a [(* 2 8)]))\n");
  auto r = parse("int *a[4];");
  ASSERT_TRUE(r.diags.empty());
  const auto& d = std::get<ast::Declaration>(r.program.items[0]).declarators[0];
  ASSERT_EQ(d.steps.size(), 2u);
  EXPECT_EQ(d.steps[0].kind, ast::DeclaratorStep::Kind::Pointer);
  EXPECT_EQ(d.steps[1].kind, ast::DeclaratorStep::Kind::Array);
  EXPECT_EQ(d.steps[1].arraySize->intValue, 4u);
}

TEST(ParseDecl, AssociativeArrays) {
  EXPECT_EQ(dump("int a[string, int];"),
            "(declaration int (decl a [(type string), (type int)]))\n");
  EXPECT_EQ(dump("int b[char *];"), "(declaration int (decl b [(type char *)]))\n");
  EXPECT_EQ(dump("int c[struct foo *, uint32_t];"),
            "(declaration int (decl c [(type struct foo *), (type uint32_t)]))\n");
}

TEST(ParseDecl, FunctionDeclarators) {
  EXPECT_EQ(dump("int (*fp)(int);"), "(declaration int (decl fp (fn (param int)) *))\n");
  EXPECT_EQ(dump("int f(void);"), "(declaration int (decl f (fn (param void))))\n");
  EXPECT_EQ(dump("int g();"), "(declaration int (decl g (fn)))\n");
  EXPECT_EQ(dump("int h(int a, char *b, ...);"),
            "(declaration int (decl h (fn (param int (decl a)) (param char (decl b *)) ...)))\n");
  EXPECT_EQ(dump("void (*signal(int, void (*)(int)))(int);"),
            "(declaration void (decl signal (fn (param int)) * (fn (param int) "
            "(param void (decl (fn (param int)) *)))))\n");
}

TEST(ParseDecl, Structs) {
  EXPECT_EQ(dump("struct foo { int a; char *b, c[4]; };"),
            "(declaration struct foo {(member int (decl a))(member char (decl b *))"
            "(member char (decl c [4]))})\n");
  EXPECT_EQ(dump("struct foo x;"), "(declaration struct foo (decl x))\n");
  EXPECT_EQ(dump("struct { int a; } anon;"),
            "(declaration struct {(member int (decl a))} (decl anon))\n");
  EXPECT_EQ(dump("union u { int i; long l; } v;"),
            "(declaration union u {(member int (decl i))(member long (decl l))} (decl v))\n");
  EXPECT_EQ(dump("struct outer { struct inner { int x; } in; int y; };"),
            "(declaration struct outer {(member struct inner {(member int (decl x))} "
            "(decl in))(member int (decl y))})\n");
}

TEST(ParseDecl, BitFields) {
  EXPECT_EQ(dump("struct flags { unsigned a : 1; unsigned : 3; int b : 2, c; };"),
            "(declaration struct flags {(member unsigned (decl a) : 1)(member unsigned (decl) : 3)"
            "(member int (decl b) : 2)(member int (decl c))})\n");
  auto r = parse("struct f { int a : 3; };");
  ASSERT_TRUE(r.diags.empty());
  const auto& spec = std::get<ast::Declaration>(r.program.items[0]).spec;
  ASSERT_TRUE(spec.structSpec);
  EXPECT_TRUE(spec.structSpec->hasBody);
  EXPECT_EQ(spec.structSpec->members[0].bitWidth->intValue, 3u);
}

TEST(ParseDecl, Enums) {
  EXPECT_EQ(dump("enum color { RED, GREEN = 5, BLUE };"),
            "(declaration enum color {RED, GREEN=5, BLUE})\n");
  EXPECT_EQ(dump("enum color c;"), "(declaration enum color (decl c))\n");
  EXPECT_EQ(dump("enum { A = 1 << 2, B = A + 1 } e;"),
            "(declaration enum {A=(<< 1 2), B=(+ A 1)} (decl e))\n");
  // A trailing comma is accepted, as illumos's types/tst.enum.d expects.
  EXPECT_EQ(dump("enum e { A, };"), "(declaration enum e {A})\n");
  EXPECT_EQ(firstError("enum e { A,, };"), "[D_SYNTAX] line 1: syntax error near \",\"");
}

TEST(ParseDecl, TypedefRegistersTypeName) {
  EXPECT_EQ(dump("typedef unsigned long myulong_t;\n"
                 "myulong_t v;\n"
                 "BEGIN { x = (myulong_t)y; z = sizeof (myulong_t); }"),
            "(declaration typedef unsigned long (decl myulong_t))\n"
            "(declaration myulong_t (decl v))\n"
            "(clause (probes \"BEGIN\") (body (= x (cast (type myulong_t) y)) "
            "(= z (sizeof (type myulong_t)))))\n");
  EXPECT_EQ(dump("typedef struct foo { int a; } foo_t;\nfoo_t *p;"),
            "(declaration typedef struct foo {(member int (decl a))} (decl foo_t))\n"
            "(declaration foo_t (decl p *))\n");
  // "foo_t*p" is one probe-description word at the outer scope; it is still a declaration.
  EXPECT_EQ(dump("typedef int foo_t;\nfoo_t*p;"),
            "(declaration typedef int (decl foo_t))\n(declaration foo_t (decl p *))\n");
}

TEST(ParseDecl, TypesFromOptions) {
  ParseOptions opts;
  opts.isTypeName = [](std::string_view n, bool) { return n == "pid_t"; };
  EXPECT_EQ(dump("pid_t p;", opts), "(declaration pid_t (decl p))\n");
  // Without the callback "pid_t" is a probe description.
  EXPECT_EQ(firstError("pid_t p;"),
            "[D_SYNTAX] line 1: expected predicate and/or actions following probe description");
}

TEST(ParseDecl, ModuleScopedTypeNames) {
  ParseOptions opts;
  opts.isTypeName = [](std::string_view n, bool) { return n == "vmlinux`u64"; };
  EXPECT_EQ(dump("BEGIN { x = (vmlinux`u64)y; }", opts),
            "(clause (probes \"BEGIN\") (body (= x (cast (type vmlinux`u64) y))))\n");
  EXPECT_EQ(
      dump("BEGIN { x = (struct vmlinux`task_struct *)y; }"),
      "(clause (probes \"BEGIN\") (body (= x (cast (type struct vmlinux`task_struct *) y))))\n");
}

TEST(ParseDecl, DeclarationLocations) {
  auto r = parse("\n\nint\n  x;");
  ASSERT_TRUE(r.diags.empty());
  const auto& d = std::get<ast::Declaration>(r.program.items[0]);
  EXPECT_EQ(d.loc.line, 3u);
  EXPECT_EQ(d.declarators[0].loc.line, 4u);
  EXPECT_EQ(d.declarators[0].loc.column, 3u);
}

TEST(ParseDecl, Inline) {
  EXPECT_EQ(dump("inline int MAX = 100;"), "(inline int (decl MAX) 100)\n");
  EXPECT_EQ(dump("inline string NAME = \"x\";\nBEGIN { trace(NAME) }"),
            "(inline string (decl NAME) \"x\")\n"
            "(clause (probes \"BEGIN\") (body (call trace NAME)))\n");
  EXPECT_EQ(dump("inline int X = a > b ? a : b;"), "(inline int (decl X) (? (> a b) a b))\n");
  EXPECT_EQ(firstError("inline int X = 1"), "[D_SYNTAX] line 1: syntax error near end of input");
}

TEST(ParseDecl, Translator) {
  EXPECT_EQ(dump("translator struct out < struct in *P > {\n"
                 "  a = P->x;\n"
                 "  b = stringof(P->name);\n"
                 "};"),
            "(translator (type struct out) (type struct in *) P (a (-> P x)) "
            "(b (stringof (-> P name))))\n");
  EXPECT_EQ(dump("translator int < int x > { };"), "(translator (type int) (type int) x)\n");
  EXPECT_EQ(firstError("translator int < int x > { }"),
            "[D_SYNTAX] line 1: syntax error near end of input");
  auto r = parse("\ntranslator int < int x > { a = 1; };");
  ASSERT_TRUE(r.diags.empty());
  const auto& x = std::get<ast::TranslatorDecl>(r.program.items[0]);
  EXPECT_EQ(x.loc.line, 2u);
  EXPECT_EQ(x.members[0].loc.line, 2u);
}

TEST(ParseDecl, ProviderDefinitionsParse) {
  EXPECT_EQ(dump("provider myapp {\n probe start(int, char *);\n probe done();\n"
                 " probe mapped(int a) : (long);\n};\nBEGIN { }"),
            "(provider myapp (probe start (param int) (param char (decl *))) (probe done)"
            " (probe mapped (param int (decl a)) : (param long)))\n"
            "(clause (probes \"BEGIN\") (body))\n");
}

TEST(ParseDecl, ProviderDefinitionKeepsNamesTypesAndPlaces) {
  auto r = parse(
      "#pragma D attributes Evolving/Evolving/Common provider myapp provider\n"
      "provider myapp {\n"
      "\tprobe d__ash(uintptr_t, char *name) : (uintptr_t, string name);\n"
      "\tprobe plain(void);\n"
      "\tprobe empty() : ();\n"
      "};\n");
  ASSERT_TRUE(r.diags.empty()) << formatDiagnostic(r.diags.first(), true, true);
  ASSERT_EQ(r.program.items.size(), 2u);
  EXPECT_EQ(std::get<ast::Pragma>(r.program.items[0]).words.at(0), "attributes");
  const auto& provider = std::get<ast::ProviderDecl>(r.program.items[1]);
  EXPECT_EQ(provider.name, "myapp");
  EXPECT_EQ(provider.loc.line, 2u);
  ASSERT_EQ(provider.probes.size(), 3u);
  const auto& dash = provider.probes[0];
  EXPECT_EQ(dash.name, "d__ash");  // as written: the "-" of d-ash is DTrace's spelling
  EXPECT_EQ(dash.loc.line, 3u);
  ASSERT_EQ(dash.nativeArgs.size(), 2u);
  EXPECT_EQ(dash.nativeArgs[0]->spec.typedefName, "uintptr_t");
  EXPECT_EQ(dash.nativeArgs[1]->declarator.name, "name");
  EXPECT_TRUE(dash.hasTranslated);
  ASSERT_EQ(dash.translatedArgs.size(), 2u);
  EXPECT_EQ(dash.translatedArgs[1]->spec.basicWords.at(0), "string");
  const auto& plain = provider.probes[1];
  EXPECT_FALSE(plain.hasTranslated);
  ASSERT_EQ(plain.nativeArgs.size(), 1u);  // (void): sema makes it no arguments
  EXPECT_EQ(plain.nativeArgs[0]->spec.basicWords.at(0), "void");
  EXPECT_TRUE(provider.probes[2].hasTranslated);
  EXPECT_TRUE(provider.probes[2].translatedArgs.empty());
}

TEST(ParseDecl, ProviderDefinitionErrors) {
  EXPECT_EQ(firstError("provider p { probe x; };"), "[D_SYNTAX] line 1: syntax error near \";\"");
  EXPECT_EQ(firstError("provider p { x(); };"), "[D_SYNTAX] line 1: syntax error near \"x\"");
  EXPECT_EQ(firstError("provider p { probe x() : int; };"),
            "[D_SYNTAX] line 1: syntax error near \"int\"");
  EXPECT_EQ(firstError("provider p { probe x() }"),
            "[D_SYNTAX] line 1: syntax error near \"}\"");
  EXPECT_EQ(firstError("provider { };"), "[D_SYNTAX] line 1: syntax error near \"{\"");
}

TEST(ParseDecl, Errors) {
  EXPECT_EQ(dump("int;"), "(declaration int)\n");
  EXPECT_EQ(firstError("int x y;"), "[D_SYNTAX] line 1: syntax error near \"y\"");
  EXPECT_EQ(firstError("int x"), "[D_SYNTAX] line 1: syntax error near end of input");
  EXPECT_EQ(firstError("struct;"), "[D_SYNTAX] line 1: syntax error near \";\"");
  EXPECT_EQ(firstError("struct s { };"), "[D_SYNTAX] line 1: syntax error near \"}\"");
  EXPECT_EQ(firstError("counter x;"), "[D_SYNTAX] line 1: syntax error near \"counter\"");
}

}  // namespace
}  // namespace dtrace::parse::testing
