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
  ASSERT_EQ(cl.xOptions.size(), 3u);
  EXPECT_EQ(cl.xOptions[0], (std::pair<std::string, std::string>{"bufsize", "16m"}));
  EXPECT_EQ(cl.xOptions[1], (std::pair<std::string, std::string>{"bufpolicy", "ring"}));
  EXPECT_EQ(cl.xOptions[2], (std::pair<std::string, std::string>{"quiet", ""}));
  EXPECT_EQ(cl.outputFile, "out.txt");
  EXPECT_EQ(cl.commands, (std::vector<std::string>{"ls -l", "date"}));
  EXPECT_EQ(cl.pids, (std::vector<int>{1, 123}));
  EXPECT_EQ(cl.cppArgs, (std::vector<std::string>{"-DX=1", "-UY", "-I/inc"}));
  EXPECT_EQ(cl.libDirs, (std::vector<std::string>{"/lib/d"}));
  EXPECT_EQ(cl.stdcMode, "s");
  EXPECT_EQ(cl.dataModel, 64);
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

TEST(CommandLine, BadValuesAreFatal) {
  UsageError error = parseFails({"dtrace", "-p", "12x", "-n", "BEGIN"});
  EXPECT_EQ(error.message, "dtrace: invalid pid: 12x\n");
  EXPECT_EQ(error.exitStatus, 1);
  error = parseFails({"dtrace", "-b", "lots", "-n", "BEGIN"});
  EXPECT_EQ(error.message, "dtrace: failed to set -b lots: Invalid value for specified option\n");
  EXPECT_EQ(error.exitStatus, 1);
  error = parseFails({"dtrace", "-X", "q", "-n", "BEGIN"});
  EXPECT_EQ(error.message, "dtrace: failed to set -X q: Invalid value for specified option\n");
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
  ASSERT_EQ(cl.xOptions.size(), 1u);
  EXPECT_EQ(cl.xOptions[0].second, "1m");
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
