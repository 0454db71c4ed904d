#include "util/command_line.h"

#include <gtest/gtest.h>

#include "util/option_table.h"

namespace dtrace::cli {
namespace {

using Kind = ProgramSource::Kind;

CommandLine parseOk(const std::vector<std::string>& args) {
  auto result = parseCommandLine(args);
  if (auto* error = std::get_if<UsageError>(&result)) {
    ADD_FAILURE() << "unexpected usage error: " << error->message;
    return {};
  }
  return std::get<CommandLine>(result);
}

UsageError parseFails(const std::vector<std::string>& args) {
  auto result = parseCommandLine(args);
  if (!std::holds_alternative<UsageError>(result)) {
    ADD_FAILURE() << "expected a usage error";
    return {};
  }
  return std::get<UsageError>(result);
}

TEST(CommandLine, BundledFlagsAndAttachedArgument) {
  CommandLine cl = parseOk({"dtrace", "-qn", "BEGIN { exit(0); }"});
  EXPECT_TRUE(cl.quiet);
  ASSERT_EQ(cl.sources.size(), 1u);
  EXPECT_EQ(cl.sources[0].kind, Kind::ProbeDescription);
  EXPECT_EQ(cl.sources[0].text, "BEGIN { exit(0); }");

  cl = parseOk({"dtrace", "-nsyscall::read:entry"});
  ASSERT_EQ(cl.sources.size(), 1u);
  EXPECT_EQ(cl.sources[0].text, "syscall::read:entry");

  cl = parseOk({"dtrace", "-qwFZCHveS", "-s", "x.d"});
  EXPECT_TRUE(cl.quiet && cl.destructive && cl.flowIndent && cl.allowZeroMatches && cl.runCpp &&
              cl.showIncludes && cl.verbose && cl.compileOnly && cl.showProgram);
}

TEST(CommandLine, QsBundleTakesScriptFromNextWord) {
  CommandLine cl = parseOk({"dtrace", "-qs", "x.d", "foo", "42"});
  EXPECT_TRUE(cl.quiet);
  ASSERT_EQ(cl.sources.size(), 1u);
  EXPECT_EQ(cl.sources[0].kind, Kind::ScriptFile);
  EXPECT_EQ(cl.sources[0].text, "x.d");
  EXPECT_EQ(cl.macroArgs, (std::vector<std::string>{"foo", "42"}));
}

TEST(CommandLine, SourcesKeepCommandLineOrder) {
  CommandLine cl = parseOk({"dtrace", "-n", "a", "-s", "b.d", "-P", "syscall", "-m", "mod", "-f",
                            "func", "-i", "42", "-n", "z"});
  ASSERT_EQ(cl.sources.size(), 7u);
  EXPECT_EQ(cl.sources[0].kind, Kind::ProbeDescription);
  EXPECT_EQ(cl.sources[1].kind, Kind::ScriptFile);
  EXPECT_EQ(cl.sources[2].kind, Kind::ProviderName);
  EXPECT_EQ(cl.sources[3].kind, Kind::ModuleName);
  EXPECT_EQ(cl.sources[4].kind, Kind::FunctionName);
  EXPECT_EQ(cl.sources[5].kind, Kind::ProbeId);
  EXPECT_EQ(cl.sources[5].text, "42");
  EXPECT_EQ(cl.sources[6].text, "z");
}

TEST(CommandLine, OptionsAfterOperandsStillCount) {
  CommandLine cl = parseOk({"dtrace", "-s", "x.d", "arg1", "-q", "arg2"});
  EXPECT_TRUE(cl.quiet);
  EXPECT_EQ(cl.macroArgs, (std::vector<std::string>{"arg1", "arg2"}));
}

TEST(CommandLine, DoubleDashMakesNextWordAnOperand) {
  CommandLine cl = parseOk({"dtrace", "-s", "x.d", "--", "-q"});
  EXPECT_FALSE(cl.quiet);
  EXPECT_EQ(cl.macroArgs, (std::vector<std::string>{"-q"}));
}

TEST(CommandLine, ArgumentMayStartWithDash) {
  CommandLine cl = parseOk({"dtrace", "-c", "-weird", "-n", "BEGIN"});
  EXPECT_EQ(cl.commands, (std::vector<std::string>{"-weird"}));
}

TEST(CommandLine, ValuedOptions) {
  CommandLine cl = parseOk({"dtrace", "-b",    "16m",    "-xbufpolicy=ring",
                            "-x",     "quiet", "-o",     "out.txt",
                            "-c",     "ls -l", "-c",     "date",
                            "-p",     "1",     "-p123",  "-DX=1",
                            "-U",     "Y",     "-I/inc", "-L",
                            "/lib/d", "-X",    "s",      "-64",
                            "-n",     "BEGIN"});
  // Every option setting, in argv order, as dtrace(1M)'s second pass sees them.
  const std::vector<OptionSetting> expected = {
      {"bufsize", "16m", "-b 16m"},
      {"bufpolicy", "ring", "-x bufpolicy"},
      {"quiet", std::nullopt, "-x quiet"},
      {"define", "X=1", "-D X=1"},
      {"undef", "Y", "-U Y"},
      {"incdir", "/inc", "-I /inc"},
      {"libdir", "/lib/d", "-L /lib/d"},
      {"stdc", "s", "-X s"},
  };
  EXPECT_EQ(cl.settings, expected);
  EXPECT_EQ(cl.outputFile, "out.txt");
  EXPECT_EQ(cl.commands, (std::vector<std::string>{"ls -l", "date"}));
  EXPECT_EQ(cl.pids, (std::vector<int>{1, 123}));
  EXPECT_EQ(cl.dataModel, 64);
}

TEST(CommandLine, EmptyXValueIsAValue) {
  // "-x quiet=" gives quiet the value "" (which unsets it); "-x quiet" none.
  CommandLine cl = parseOk({"dtrace", "-x", "quiet=", "-x", "quiet", "-n", "BEGIN"});
  ASSERT_EQ(cl.settings.size(), 2u);
  EXPECT_EQ(cl.settings[0].value, std::optional<std::string>(""));
  EXPECT_EQ(cl.settings[1].value, std::nullopt);
}

TEST(CommandLine, ModeFlags) {
  EXPECT_TRUE(parseOk({"dtrace", "-l"}).list);
  EXPECT_TRUE(parseOk({"dtrace", "-V"}).printVersion);
  EXPECT_TRUE(parseOk({"dtrace", "-h", "-s", "p.d"}).generateHeader);
  EXPECT_TRUE(parseOk({"dtrace", "-G", "-s", "p.d", "a.o"}).generateObject);
  EXPECT_EQ(parseOk({"dtrace", "-32", "-l"}).dataModel, 32);
}

TEST(CommandLine, NoArgumentsPrintsUsage) {
  UsageError error = parseFails({"dtrace"});
  EXPECT_EQ(error.exitStatus, 2);
  EXPECT_EQ(error.message, usageText("dtrace"));
  EXPECT_EQ(error.message.rfind("Usage: dtrace [-32|-64] [-aACeFGhHlqSvVwZ] [-b bufsz]", 0), 0u);
}

TEST(CommandLine, IllegalOption) {
  UsageError error = parseFails({"/usr/sbin/dtrace", "-qk"});
  EXPECT_EQ(error.exitStatus, 2);
  EXPECT_EQ(error.message, "dtrace: illegal option -- k\n" + usageText("dtrace"));
}

TEST(CommandLine, MissingArgument) {
  UsageError error = parseFails({"dtrace", "-q", "-n"});
  EXPECT_EQ(error.message, "dtrace: option requires an argument -- n\n" + usageText("dtrace"));
}

TEST(CommandLine, BadDataModel) {
  UsageError error = parseFails({"dtrace", "-33"});
  EXPECT_EQ(error.message, "dtrace: illegal option -- 33\n" + usageText("dtrace"));
}

TEST(CommandLine, ConflictingModes) {
  UsageError error = parseFails({"dtrace", "-l", "-V"});
  EXPECT_EQ(error.message, "dtrace: only one of the [-AGhlV] options can be specified at a time\n");
  EXPECT_EQ(error.exitStatus, 2);
}

TEST(CommandLine, AnonymousTracingRefused) {
  UsageError error = parseFails({"dtrace", "-A", "-n", "BEGIN"});
  EXPECT_EQ(error.exitStatus, 2);
  EXPECT_NE(error.message.find("-A"), std::string::npos);
}

TEST(ApplyOptions, BadValuesInArgvOrderThenPids) {
  // dtrace(1M): option values in its second pass, in argv order; -p in its third.
  auto applied = [](std::vector<std::string> args) {
    OptionTable options;
    Result<void> r = applyOptions(parseOk(std::move(args)), options);
    return r.ok() ? std::string() : r.error().message;
  };
  EXPECT_EQ(applied({"dtrace", "-p", "12x", "-n", "BEGIN"}), "invalid pid: 12x");
  EXPECT_EQ(applied({"dtrace", "-b", "lots", "-n", "BEGIN"}),
            "failed to set -b lots: Invalid value for specified option");
  EXPECT_EQ(applied({"dtrace", "-X", "q", "-n", "BEGIN"}),
            "failed to set -X q: Invalid value for specified option");
  EXPECT_EQ(applied({"dtrace", "-p", "x", "-x", "bogus", "-b", "abc", "-n", "BEGIN"}),
            "failed to set -x bogus: Invalid option name");
}

TEST(ApplyOptions, LaterSettingsWin) {
  // -q then -x quiet=no: quiet ends up off, as in argv order.
  OptionTable options;
  ASSERT_TRUE(applyOptions(parseOk({"dtrace", "-q", "-x", "quiet=no", "-n", "B"}), options).ok());
  EXPECT_FALSE(options.flag("quiet"));
  OptionTable empty;
  ASSERT_TRUE(applyOptions(parseOk({"dtrace", "-q", "-x", "quiet=", "-n", "B"}), empty).ok());
  EXPECT_FALSE(empty.flag("quiet"));
}

TEST(CommandLine, InterpreterArgumentIsSplit) {
  // What Linux passes for "#!/usr/sbin/dtrace -q -s" run as ./x.d hello.
  CommandLine cl = parseOk({"/usr/sbin/dtrace", "-q -s", "./x.d", "hello"});
  EXPECT_TRUE(cl.quiet);
  ASSERT_EQ(cl.sources.size(), 1u);
  EXPECT_EQ(cl.sources[0].text, "./x.d");
  EXPECT_EQ(cl.macroArgs, (std::vector<std::string>{"hello"}));

  cl = parseOk({"dtrace", "-x bufsize=1m -Cs", "./x.d"});
  EXPECT_TRUE(cl.runCpp);
  ASSERT_EQ(cl.settings.size(), 2u);
  EXPECT_EQ(cl.settings[0].value, std::optional<std::string>("1m"));
}

TEST(CommandLine, AttachedProgramTextIsNotSplit) {
  CommandLine cl = parseOk({"dtrace", "-nBEGIN { exit(0); }"});
  ASSERT_EQ(cl.sources.size(), 1u);
  EXPECT_EQ(cl.sources[0].text, "BEGIN { exit(0); }");
  cl = parseOk({"dtrace", "-qnBEGIN { exit(0); }"});
  EXPECT_TRUE(cl.quiet);
  EXPECT_EQ(cl.sources[0].text, "BEGIN { exit(0); }");
}

TEST(CommandLine, ArgvEntryPoint) {
  char a0[] = "dtrace", a1[] = "-qn", a2[] = "BEGIN";
  char* argv[] = {a0, a1, a2, nullptr};
  auto result = parseCommandLine(3, argv);
  ASSERT_TRUE(std::holds_alternative<CommandLine>(result));
  EXPECT_TRUE(std::get<CommandLine>(result).quiet);
}

TEST(ShebangOptions, DirectInterpreter) {
  EXPECT_EQ(shebangOptions("#!/usr/sbin/dtrace -qs\nBEGIN {}\n"), (std::vector<std::string>{"-q"}));
  EXPECT_EQ(shebangOptions("#!/usr/sbin/dtrace -s\n"), (std::vector<std::string>{}));
  EXPECT_EQ(shebangOptions("#!/usr/sbin/dtrace -q -x bufsize=1m -s\n"),
            (std::vector<std::string>{"-q", "-x", "bufsize=1m"}));
  EXPECT_EQ(shebangOptions("#!/usr/sbin/dtrace -Cqs"), (std::vector<std::string>{"-Cq"}));
}

TEST(ShebangOptions, ThroughEnv) {
  EXPECT_EQ(shebangOptions("#!/usr/bin/env dtrace -s\n"), (std::vector<std::string>{}));
  EXPECT_EQ(shebangOptions("#!/usr/bin/env -S dtrace -q -s\n"), (std::vector<std::string>{"-q"}));
}

TEST(ShebangOptions, NotDtrace) {
  EXPECT_TRUE(shebangOptions("#!/bin/sh -e\n").empty());
  EXPECT_TRUE(shebangOptions("BEGIN { exit(0); }\n").empty());
  EXPECT_TRUE(shebangOptions("").empty());
}

TEST(ApplyOptions, FlagsAndXOptionsReachTheTable) {
  CommandLine cl =
      parseOk({"dtrace", "-qF", "-b", "8m", "-x", "switchrate=10hz", "-DX", "-n", "B"});
  OptionTable options;
  ASSERT_TRUE(applyOptions(cl, options).ok());
  EXPECT_TRUE(options.flag("quiet"));
  EXPECT_TRUE(options.flag("flowindent"));
  EXPECT_FALSE(options.flag("destructive"));
  EXPECT_EQ(options.size("bufsize"), 8u << 20);
  EXPECT_EQ(options.timeNs("switchrate"), 100000000u);
  EXPECT_EQ(options.cppArgs(), (std::vector<std::string>{"-DX"}));
}

TEST(ApplyOptions, ErrorWording) {
  OptionTable options;
  Result<void> r = applyOptions(parseOk({"dtrace", "-x", "nosuch", "-n", "B"}), options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "failed to set -x nosuch: Invalid option name");
  r = applyOptions(parseOk({"dtrace", "-x", "bufsize=huge", "-n", "B"}), options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "failed to set -x bufsize: Invalid value for specified option");
}

}  // namespace
}  // namespace dtrace::cli
