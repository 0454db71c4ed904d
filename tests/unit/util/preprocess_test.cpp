#include "util/preprocess.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace dtrace {
namespace {

namespace fs = std::filesystem;

class PreprocessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("dtrace-cpp-test-" + std::to_string(getpid()));
    fs::create_directories(dir_ / "inc");
    std::ofstream(dir_ / "inc" / "defs.h") << "#define FROM_HEADER 77\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(PreprocessTest, DefinesUndefsAndIncludes) {
  std::string source =
      "#include \"defs.h\"\n"
      "BEGIN { trace(X); trace(FROM_HEADER); }\n"
      "#ifdef Y\n"
      "BEGIN { trace(\"y\"); }\n"
      "#endif\n";
  auto out =
      preprocess(source, "x.d", {"-DX=5", "-DY", "-UY", "-I" + (dir_ / "inc").string()}, false);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_NE(out->find("BEGIN { trace(5); trace(77); }"), std::string::npos) << *out;
  EXPECT_EQ(out->find("trace(\"y\")"), std::string::npos) << *out;
}

TEST_F(PreprocessTest, LineMarkersNameTheScript) {
  std::string source =
      "#!/usr/sbin/dtrace -Cs\n"
      "#define N 3\n"
      "\n"
      "\n"
      "\n"
      "\n"
      "\n"
      "\n"
      "\n"
      "\n"
      "BEGIN { trace(N); }\n";
  auto out = preprocess(source, "dir/my script.d", {}, false);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->find("<stdin>"), std::string::npos) << *out;
  EXPECT_EQ(out->find("<built-in>"), std::string::npos) << *out;
  EXPECT_EQ(out->find("#!"), std::string::npos) << *out;
  // BEGIN is line 11 of the file; cpp either marks it or pads with newlines.
  size_t marker = out->find("# 11 \"dir/my script.d\"");
  size_t begin = out->find("BEGIN { trace(3); }");
  ASSERT_NE(begin, std::string::npos) << *out;
  if (marker == std::string::npos) {
    size_t first = out->find("# 1 \"dir/my script.d\"");
    ASSERT_NE(first, std::string::npos) << *out;
    size_t lineStart = out->find('\n', first) + 1;
    int lines = 1;
    for (size_t i = lineStart; i < begin; i++) lines += (*out)[i] == '\n';
    EXPECT_EQ(lines, 11) << *out;
  } else {
    EXPECT_LT(marker, begin);
  }
}

TEST_F(PreprocessTest, PredefinedMacros) {
  std::string source =
      "__linux __SUNW_D _LP64 __x86_64\n"
      "linux unix\n";
  auto out = preprocess(source, "p.d", {}, false);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_NE(out->find("1 1 1 1"), std::string::npos) << *out;
  EXPECT_NE(out->find("linux unix"), std::string::npos) << *out;  // not GNU cpp's 1 1
}

TEST_F(PreprocessTest, FailureReturnsCppDiagnostics) {
  auto out = preprocess("#include \"nosuch.h\"\nBEGIN {}\n", "bad.d", {}, false);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().message.find("nosuch.h"), std::string::npos) << out.error().message;
  out = preprocess("#error stop here\n", "bad.d", {}, false);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().message.find("stop here"), std::string::npos) << out.error().message;
}

TEST_F(PreprocessTest, DiagnosticsNameTheInputDevStdin) {
  // As Oracle's dtrace names cpp's input; the output's markers name the script.
  auto out = preprocess("BEGIN {}\n#define\n", "named.d", {}, false);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().message.find("/dev/stdin:2:"), std::string::npos) << out.error().message;
  EXPECT_EQ(out.error().message.find("named.d"), std::string::npos) << out.error().message;
  out = preprocess("BEGIN {}\n", "named.d", {}, false);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->find("/dev/stdin"), std::string::npos) << *out;
  EXPECT_NE(out->find("\"named.d\""), std::string::npos) << *out;
}

TEST_F(PreprocessTest, StdcModes) {
  const std::string source = "#ifdef __STDC__\nstdc=__STDC__\n#else\nnone\n#endif\n";
  for (const auto& [mode, expected] : std::vector<std::pair<std::string, std::string>>{
           {"", "stdc=0"}, {"a", "stdc=0"}, {"t", "stdc=0"}, {"c", "stdc=1"}, {"s", "none"}}) {
    auto out = preprocess(source, "s.d", {}, false, "cpp", mode);
    ASSERT_TRUE(out.ok()) << out.error().message;
    EXPECT_NE(out->find(expected), std::string::npos) << mode << ": " << *out;
  }
  // GNU cpp's warning about redefining __STDC__ is not passed on.
  auto out = preprocess("#error stop\n", "e.d", {}, false);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().message.find("__STDC__"), std::string::npos) << out.error().message;
}

TEST_F(PreprocessTest, MissingPreprocessor) {
  auto out = preprocess("BEGIN {}\n", "x.d", {}, false, "/nonexistent/cpp");
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().message.find("failed to execute /nonexistent/cpp"), std::string::npos)
      << out.error().message;
}

}  // namespace
}  // namespace dtrace
