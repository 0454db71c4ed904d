// Program structure: probe clauses, predicates, statements, pragmas and
// control lines.
#include <gtest/gtest.h>

#include "parse_test_util.h"

namespace dtrace::parse::testing {
namespace {

TEST(ParseProgram, EmptyProgram) {
  EXPECT_EQ(dump(""), "");
  EXPECT_EQ(dump("  \n /* nothing */ \n"), "");
}

TEST(ParseProgram, ProbeDescriptions) {
  EXPECT_EQ(dump("syscall::read:entry { }"), "(clause (probes \"syscall::read:entry\") (body))\n");
  EXPECT_EQ(dump("tick-1s {}"), "(clause (probes \"tick-1s\") (body))\n");
  EXPECT_EQ(dump("profile-997hz {}"), "(clause (probes \"profile-997hz\") (body))\n");
  EXPECT_EQ(dump("pid$target::malloc:entry {}"),
            "(clause (probes \"pid$target::malloc:entry\") (body))\n");
  EXPECT_EQ(dump("fbt::*sys_*:entry {}"), "(clause (probes \"fbt::*sys_*:entry\") (body))\n");
  EXPECT_EQ(dump("syscall::[rw]*:entry, syscall::?ead:return {}"),
            "(clause (probes \"syscall::[rw]*:entry\" \"syscall::?ead:return\") (body))\n");
  EXPECT_EQ(dump("syscall::$1:entry {}"), "(clause (probes \"syscall::$1:entry\") (body))\n");
  EXPECT_EQ(dump("sdt:vmlinux`x:a.b:c-d+e {}"),
            "(clause (probes \"sdt:vmlinux`x:a.b:c-d+e\") (body))\n");
  EXPECT_EQ(dump("BEGIN,END\n{\n}"), "(clause (probes \"BEGIN\" \"END\") (body))\n");
  EXPECT_EQ(dump("syscall::read*:entry,syscall::write:entry{}"),
            "(clause (probes \"syscall::read*:entry\" \"syscall::write:entry\") (body))\n");
}

TEST(ParseProgram, ProbeSpecFields) {
  auto r = parse("a:b:c:d, c:d, d, :::, a::c:\n{}");
  ASSERT_TRUE(r.diags.empty());
  const auto& c = std::get<ast::ProbeClause>(r.program.items[0]);
  ASSERT_EQ(c.probes.size(), 5u);
  EXPECT_EQ(c.probes[0].provider, "a");
  EXPECT_EQ(c.probes[0].module, "b");
  EXPECT_EQ(c.probes[0].function, "c");
  EXPECT_EQ(c.probes[0].name, "d");
  EXPECT_EQ(c.probes[1].provider, "");
  EXPECT_EQ(c.probes[1].function, "c");
  EXPECT_EQ(c.probes[1].name, "d");
  EXPECT_EQ(c.probes[2].name, "d");
  EXPECT_EQ(c.probes[2].function, "");
  EXPECT_EQ(c.probes[3].text, ":::");
  EXPECT_EQ(c.probes[4].provider, "a");
  EXPECT_EQ(c.probes[4].function, "c");
  EXPECT_EQ(c.probes[4].name, "");
  EXPECT_EQ(c.probes[0].loc.line, 1u);
}

TEST(ParseProgram, SplitProbeSpec) {
  ast::ProbeSpec s = splitProbeSpec("syscall::read:entry", SourceLoc{3, 1});
  EXPECT_EQ(s.provider, "syscall");
  EXPECT_EQ(s.module, "");
  EXPECT_EQ(s.function, "read");
  EXPECT_EQ(s.name, "entry");
  EXPECT_EQ(s.loc.line, 3u);
  s = splitProbeSpec("BEGIN", {});
  EXPECT_EQ(s.name, "BEGIN");
  EXPECT_EQ(s.provider, "");
  s = splitProbeSpec("read:entry", {});
  EXPECT_EQ(s.function, "read");
  EXPECT_EQ(s.name, "entry");
  s = splitProbeSpec("m:f:n", {});
  EXPECT_EQ(s.module, "m");
  EXPECT_EQ(s.function, "f");
  EXPECT_EQ(s.name, "n");
  s = splitProbeSpec("x:p:m:f:n", {});
  EXPECT_EQ(s.provider, "x:p");
  EXPECT_EQ(s.name, "n");
}

TEST(ParseProgram, Predicates) {
  EXPECT_EQ(dump("syscall::read:entry /pid == 42/ { x = 1; }"),
            "(clause (probes \"syscall::read:entry\") (pred (== pid 42)) (body (= x 1)))\n");
  EXPECT_EQ(dump("tick-10ms/i++ == 3/{exit(0)}"),
            "(clause (probes \"tick-10ms\") (pred (== (post++ i) 3)) (body (call exit 0)))\n");
  EXPECT_EQ(dump("BEGIN / a / b / { }"), "(clause (probes \"BEGIN\") (pred (/ a b)) (body))\n");
  EXPECT_EQ(dump("BEGIN /self->ts && (x / 2) > 1/\n{ }"),
            "(clause (probes \"BEGIN\") (pred (&& (-> self ts) (> (/ x 2) 1))) (body))\n");
  EXPECT_EQ(dump("a:b:c:d,e:f:g:h /x/ {}"),
            "(clause (probes \"a:b:c:d\" \"e:f:g:h\") (pred x) (body))\n");
}

TEST(ParseProgram, PredicateWithoutActions) {
  EXPECT_EQ(firstError("BEGIN\n/x == 1/"),
            "[D_SYNTAX] line 2: expected actions { } following probe description and predicate");
  ParseOptions bare;
  bare.allowBareProbeSpec = true;
  EXPECT_EQ(firstError("BEGIN /x/", bare),
            "[D_SYNTAX] line 1: expected actions { } following probe description and predicate");
}

TEST(ParseProgram, BareProbeDescriptions) {
  ParseOptions bare;
  bare.allowBareProbeSpec = true;
  EXPECT_EQ(dump("syscall::read:entry", bare),
            "(clause (probes \"syscall::read:entry\") (body))\n");
  EXPECT_EQ(dump("syscall::read:entry,syscall::write:entry", bare),
            "(clause (probes \"syscall::read:entry\" \"syscall::write:entry\") (body))\n");
  EXPECT_EQ(dump("BEGIN", bare), "(clause (probes \"BEGIN\") (body))\n");
  // With -n every word is a probe description, even one that names a type.
  EXPECT_EQ(dump("int*", bare), "(clause (probes \"int*\") (body))\n");
  EXPECT_EQ(firstError("syscall::read:entry"),
            "[D_SYNTAX] line 1: expected predicate and/or actions following probe description");
  EXPECT_EQ(firstError("\nBEGIN\nEND { }"),
            "[D_SYNTAX] line 2: expected predicate and/or actions following probe description");
}

TEST(ParseProgram, ProbeIds) {
  ParseOptions bare;
  bare.allowBareProbeSpec = true;
  EXPECT_EQ(dump("1234", bare), "(clause (probes \"1234\") (body))\n");
}

TEST(ParseProgram, MultipleClauses) {
  EXPECT_EQ(dump("BEGIN { a = 1; }\nEND { b = 2; }\n"),
            "(clause (probes \"BEGIN\") (body (= a 1)))\n"
            "(clause (probes \"END\") (body (= b 2)))\n");
}

TEST(ParseProgram, ClauseLocation) {
  auto r = parse("\n\n  syscall::read:entry\n{ }");
  ASSERT_TRUE(r.diags.empty());
  const auto& c = std::get<ast::ProbeClause>(r.program.items[0]);
  EXPECT_EQ(c.loc.line, 3u);
  EXPECT_EQ(c.loc.column, 3u);
}

TEST(ParseStatements, LastStatementMayOmitSemicolon) {
  EXPECT_EQ(dump("BEGIN { x = 1; y = 2 }"), "(clause (probes \"BEGIN\") (body (= x 1) (= y 2)))\n");
  EXPECT_EQ(dump("BEGIN { trace(1) }"), "(clause (probes \"BEGIN\") (body (call trace 1)))\n");
  EXPECT_EQ(firstError("BEGIN { x = 1 y = 2 }"), "[D_SYNTAX] line 1: syntax error near \"y\"");
}

TEST(ParseStatements, EmptyStatements) {
  EXPECT_EQ(dump("BEGIN { ; x = 1;; }"),
            "(clause (probes \"BEGIN\") (body (empty) (= x 1) (empty)))\n");
}

TEST(ParseStatements, IfElse) {
  EXPECT_EQ(stmt("if (x) y = 1"), "(if x (then (= y 1)))");
  EXPECT_EQ(stmt("if (x) y = 1; else y = 2"), "(if x (then (= y 1)) (else (= y 2)))");
  EXPECT_EQ(stmt("if (x) { y = 1; z = 2 } else { }"), "(if x (then (= y 1) (= z 2)) (else))");
  EXPECT_EQ(stmt("if (a) if (b) x = 1; else x = 2"),
            "(if a (then (if b (then (= x 1)) (else (= x 2)))))");
  EXPECT_EQ(stmt("if (a) x = 1; else if (b) x = 2; else x = 3"),
            "(if a (then (= x 1)) (else (if b (then (= x 2)) (else (= x 3)))))");
  EXPECT_EQ(stmt("if (a) ;"), "(if a (then (empty)))");
  EXPECT_EQ(dump("BEGIN { if (x) { trace(1) } trace(2) }"),
            "(clause (probes \"BEGIN\") (body (if x (then (call trace 1))) (call trace 2)))\n");
  // The branch of an if is a whole statement: it needs its ';'.
  EXPECT_EQ(firstError("BEGIN { if (x) y = 1 }"), "[D_SYNTAX] line 1: syntax error near \"}\"");
  EXPECT_EQ(firstError("BEGIN { if x { } }"), "[D_SYNTAX] line 1: syntax error near \"x\"");
}

TEST(ParseStatements, Blocks) {
  EXPECT_EQ(dump("BEGIN { { x = 1; { y = 2 } } }"),
            "(clause (probes \"BEGIN\") (body (block (= x 1) (block (= y 2)))))\n");
}

TEST(ParseStatements, StatementLocations) {
  auto r = parse("BEGIN\n{\n  x = 1;\n\n  if (y)\n    z = 2;\n}");
  ASSERT_TRUE(r.diags.empty());
  const auto& c = std::get<ast::ProbeClause>(r.program.items[0]);
  ASSERT_EQ(c.body.size(), 2u);
  EXPECT_EQ(c.body[0]->loc.line, 3u);
  EXPECT_EQ(c.body[1]->loc.line, 5u);
  EXPECT_EQ(c.body[1]->body[0]->loc.line, 6u);
}

TEST(ParsePragmas, PragmaDLinesBecomeItems) {
  EXPECT_EQ(dump("#pragma D option quiet\n#pragma D option bufsize=4m\nBEGIN { }\n"),
            "(pragma option quiet)\n(pragma option bufsize=4m)\n"
            "(clause (probes \"BEGIN\") (body))\n");
  EXPECT_EQ(dump("#pragma D depends_on module x\n"), "(pragma depends_on module x)\n");
  EXPECT_EQ(dump("  #pragma D attributes Evolving/Evolving/Common provider foo args\n"),
            "(pragma attributes Evolving/Evolving/Common provider foo args)\n");
  auto r = parse("\n#pragma D option flowindent\n");
  ASSERT_TRUE(r.diags.empty());
  const auto& p = std::get<ast::Pragma>(r.program.items.at(0));
  EXPECT_EQ(p.words, (std::vector<std::string>{"option", "flowindent"}));
  EXPECT_EQ(p.loc.line, 2u);
}

TEST(ParsePragmas, PragmaInsideClauseFollowsIt) {
  EXPECT_EQ(dump("BEGIN\n{\n#pragma D option quiet\n x = 1;\n}\nEND { }"),
            "(clause (probes \"BEGIN\") (body (= x 1)))\n(pragma option quiet)\n"
            "(clause (probes \"END\") (body))\n");
}

TEST(ParsePragmas, IgnoredDirectives) {
  EXPECT_EQ(dump("#!/usr/sbin/dtrace -s\n#pragma ident \"x\"\n#ident \"y\"\n#pragma weak foo\n#\n"
                 "BEGIN { }"),
            "(clause (probes \"BEGIN\") (body))\n");
}

TEST(ParsePragmas, Errors) {
  EXPECT_EQ(firstError("BEGIN { }\n#include <stdio.h>\n"),
            "[D_PRAGCTL_INVAL] line 2: invalid control directive: #include");
  EXPECT_EQ(firstError("#pragma D frobnicate\n"),
            "[D_PRAGMA_INVAL] line 1: invalid D pragma: frobnicate");
  EXPECT_EQ(firstError("#pragma D option\n"),
            "[D_PRAGMA_MALFORM] line 1: malformed #pragma option <option>=<val>");
  EXPECT_EQ(firstError("#pragma D option a b\n"),
            "[D_PRAGMA_MALFORM] line 1: superfluous arguments specified for #pragma option");
  EXPECT_EQ(firstError("\n#error stop here\n"), "[D_PRAGERR] line 2: #error: stop here ");
  EXPECT_EQ(firstError("#line x\n"),
            "[D_PRAGMA_MALFORM] line 1: malformed #line <line> [ [\"file\"] state ]");
  EXPECT_EQ(firstError("#\"x\"\n"), "[D_PRAGCTL_INVAL] line 1: invalid control directive");
}

TEST(ParsePragmas, LineMarkersResetLineNumbers) {
  EXPECT_EQ(firstError("# 1 \"<stdin>\"\n# 12 \"x.d\"\nBEGIN\n{\n x = ;\n}"),
            "[D_SYNTAX] line 14: syntax error near \";\"");
  EXPECT_EQ(firstError("# 7 \"x.d\" 1 3 4\nBEGIN { x = ; }"),
            "[D_SYNTAX] line 7: syntax error near \";\"");
  EXPECT_EQ(firstError("#line 30\nBEGIN { x = ; }"), "[D_SYNTAX] line 30: syntax error near \";\"");
  EXPECT_EQ(firstError("BEGIN\n{\n#line 100 \"f.d\"\n x = ;\n}"),
            "[D_SYNTAX] line 100: syntax error near \";\"");
}

}  // namespace
}  // namespace dtrace::parse::testing

namespace dtrace::parse::testing {
namespace {

TEST(ParseProgram, TypeCallbackOnlySeesIdentifierShapedWords) {
  std::vector<std::string> asked;
  ParseOptions opts;
  opts.isTypeName = [&](std::string_view n, bool) {
    asked.emplace_back(n);
    return false;
  };
  EXPECT_EQ(dump("tick-1s { } syscall::read:entry { }", opts),
            "(clause (probes \"tick-1s\") (body))\n"
            "(clause (probes \"syscall::read:entry\") (body))\n");
  EXPECT_TRUE(asked.empty());
}

TEST(ParseProgram, RealisticScript) {
  const char* script = R"(#!/usr/sbin/dtrace -s
#pragma D option quiet

/* Count reads per process. */
inline int LIMIT = 10;
self uint64_t ts;

syscall::read:entry
/execname != "dtrace" && pid != $pid/
{
	self->ts = timestamp;
}

syscall::read:return
/self->ts/
{
	@lat[execname] = quantize(timestamp - self->ts);
	@bytes[execname, pid] = sum(arg0 > 0 ? arg0 : 0);
	self->ts = 0;
}

tick-1s
/i++ >= LIMIT/
{
	printa("%-16s %@d\n", @bytes);
	trunc(@bytes, 5);
	exit(0)
}
)";
  EXPECT_EQ(dump(script),
            "(pragma option quiet)\n"
            "(inline int (decl LIMIT) 10)\n"
            "(declaration self uint64_t (decl ts))\n"
            "(clause (probes \"syscall::read:entry\") (pred (&& (!= execname \"dtrace\") "
            "(!= pid $pid))) (body (= (-> self ts) timestamp)))\n"
            "(clause (probes \"syscall::read:return\") (pred (-> self ts)) (body "
            "(= (index @lat execname) (call quantize (- timestamp (-> self ts)))) "
            "(= (index @bytes execname pid) (call sum (? (> arg0 0) arg0 0))) "
            "(= (-> self ts) 0)))\n"
            "(clause (probes \"tick-1s\") (pred (>= (post++ i) LIMIT)) (body "
            "(call printa \"%-16s %@d\\n\" @bytes) (call trunc @bytes 5) (call exit 0)))\n");
}

}  // namespace
}  // namespace dtrace::parse::testing
