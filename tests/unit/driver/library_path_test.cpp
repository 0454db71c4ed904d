#include "driver/library_path.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace dtrace::driver {
namespace {

class LibraryPathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/library_path_test.XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    root_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  std::string dir(const std::string& name) {
    std::filesystem::create_directories(root_ + "/" + name);
    return root_ + "/" + name;
  }
  void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

  static std::vector<std::string> names(const std::vector<LibraryFile>& libs) {
    std::vector<std::string> out;
    for (const LibraryFile& lib : libs) out.push_back(lib.path.substr(lib.path.rfind('/') + 1));
    return out;
  }

  static bool builtin(std::string_view name) { return name == "ip.d"; }

  std::string root_;
};

TEST_F(LibraryPathTest, DependenciesComeFirst) {
  std::string a = dir("a");
  write(a + "/app.d", "#pragma D depends_on library mid.d\n");
  write(a + "/mid.d", "#pragma D depends_on library base.d\n#pragma D depends_on library ip.d\n");
  write(a + "/base.d", "inline int base = 1;\n");
  write(a + "/notes.txt", "not a library");
  auto libs = findLibraries({a}, builtin);
  ASSERT_TRUE(libs) << libs.error().message;
  EXPECT_EQ(names(*libs), (std::vector<std::string>{"base.d", "mid.d", "app.d"}));
  EXPECT_EQ((*libs)[1].dependsOn, (std::vector<std::string>{a + "/base.d", "ip.d"}));
}

TEST_F(LibraryPathTest, FirstFileOfANameWins) {
  std::string a = dir("a"), b = dir("b");
  write(a + "/lib.d", "inline int from_a = 1;\n");
  write(b + "/lib.d", "inline int from_b = 1;\n");
  write(b + "/other.d", "");
  auto libs = findLibraries({a, b, root_ + "/missing"}, builtin);
  ASSERT_TRUE(libs);
  ASSERT_EQ(libs->size(), 2u);
  EXPECT_EQ((*libs)[0].path, a + "/lib.d");
  EXPECT_EQ((*libs)[0].text, "inline int from_a = 1;\n");
  EXPECT_EQ((*libs)[1].path, b + "/other.d");
}

TEST_F(LibraryPathTest, DependencyOnNoLibraryIsAnError) {
  std::string a = dir("a");
  write(a + "/lib.d", "#pragma D depends_on library gone.d\n");
  auto libs = findLibraries({a}, builtin);
  ASSERT_FALSE(libs);
  EXPECT_EQ(libs.error().message,
            "Invalid library dependency in " + a + "/lib.d: " + a + "/gone.d");
}

TEST_F(LibraryPathTest, CycleIsAnError) {
  std::string a = dir("a");
  write(a + "/x.d", "#pragma D depends_on library y.d\n");
  write(a + "/y.d", "#pragma D depends_on library x.d\n");
  auto libs = findLibraries({a}, builtin);
  ASSERT_FALSE(libs);
  EXPECT_EQ(libs.error().message, "Cyclic dependency detected: " + a + "/x.d => " + a + "/y.d");
}

TEST_F(LibraryPathTest, CommentedPragmaIsNotADependency) {
  std::string a = dir("a");
  write(a + "/lib.d", "/* #pragma D depends_on library gone.d */\n");
  auto libs = findLibraries({a}, builtin);
  ASSERT_TRUE(libs);
  EXPECT_TRUE((*libs)[0].dependsOn.empty());
}

}  // namespace
}  // namespace dtrace::driver
