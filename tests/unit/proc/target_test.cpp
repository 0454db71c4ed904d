#include "proc/target.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>

namespace dtrace::proc {
namespace {

// Waits for the target's pidfd to report its exit; false on timeout.
bool waitForExit(Target& target, int timeoutMs = 10000) {
  pollfd pfd = {target.exitFd(), POLLIN, 0};
  if (::poll(&pfd, 1, timeoutMs) != 1) return false;
  return target.exited();
}

TEST(Target, SpawnTrueExitsZero) {
  auto target = Target::spawn("/bin/true");
  ASSERT_TRUE(target.ok()) << target.error().message;
  EXPECT_GT(target->pid(), 0);
  EXPECT_TRUE(target->created());
  EXPECT_GE(target->exitFd(), 0);
  EXPECT_FALSE(target->exited());  // held until start()
  ASSERT_TRUE(target->start().ok());
  ASSERT_TRUE(waitForExit(*target));
  EXPECT_EQ(target->exitStatus(), 0);
  EXPECT_EQ(target->termSignal(), 0);
  EXPECT_EQ(exitNotice(*target), "pid " + std::to_string(target->pid()) + " has exited");
}

TEST(Target, SpawnShellExitStatus) {
  auto target = Target::spawn(std::vector<std::string>{"sh", "-c", "exit 3"});
  ASSERT_TRUE(target.ok()) << target.error().message;
  ASSERT_TRUE(target->start().ok());
  ASSERT_TRUE(waitForExit(*target));
  EXPECT_EQ(target->exitStatus(), 3);
  EXPECT_EQ(exitNotice(*target), "pid " + std::to_string(target->pid()) + " exited with status 3");
}

TEST(Target, CommandIsSplitOnWhitespaceWithoutAShell) {
  auto target = Target::spawn("  sh\t-c  exit\n");  // sh -c exit
  ASSERT_TRUE(target.ok()) << target.error().message;
  EXPECT_EQ(target->argv(), (std::vector<std::string>{"sh", "-c", "exit"}));
  ASSERT_TRUE(target->start().ok());
  ASSERT_TRUE(waitForExit(*target));
  EXPECT_EQ(target->exitStatus(), 0);
}

TEST(Target, ChildDoesNotRunBeforeStart) {
  std::filesystem::path marker =
      std::filesystem::temp_directory_path() / ("dtrace-target-" + std::to_string(getpid()));
  std::filesystem::remove(marker);
  {
    auto target = Target::spawn(std::vector<std::string>{"touch", marker.string()});
    ASSERT_TRUE(target.ok()) << target.error().message;
    usleep(100 * 1000);
    EXPECT_FALSE(std::filesystem::exists(marker));
    // Destroyed unstarted: the child exits without exec'ing.
  }
  EXPECT_FALSE(std::filesystem::exists(marker));
}

TEST(Target, MissingCommand) {
  auto target = Target::spawn("/nonexistent/program arg");
  ASSERT_FALSE(target.ok());
  EXPECT_EQ(target.error().message,
            "failed to execute /nonexistent/program: cannot find executable file");
  target = Target::spawn("no-such-command-for-dtrace-test");
  ASSERT_FALSE(target.ok());
  EXPECT_EQ(target.error().message,
            "failed to execute no-such-command-for-dtrace-test: cannot find executable file");
}

TEST(Target, KillOnErrorPath) {
  auto target = Target::spawn("sleep 30");
  ASSERT_TRUE(target.ok()) << target.error().message;
  ASSERT_TRUE(target->start().ok());
  EXPECT_FALSE(target->exited());
  target->kill();
  EXPECT_TRUE(target->exited());
  EXPECT_EQ(target->termSignal(), SIGKILL);
  EXPECT_EQ(exitNotice(*target), "pid " + std::to_string(target->pid()) + " terminated by SIGKILL");
}

TEST(Target, GrabExistingProcess) {
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    pause();
    _exit(0);
  }
  {
    auto target = Target::grab(child);
    ASSERT_TRUE(target.ok()) << target.error().message;
    EXPECT_FALSE(target->created());
    EXPECT_TRUE(target->start().ok());
    EXPECT_FALSE(target->exited());
    ::kill(child, SIGTERM);
    ASSERT_TRUE(waitForExit(*target));
    EXPECT_EQ(target->exitStatus(), -1);  // not ours to reap
    EXPECT_EQ(exitNotice(*target), "pid " + std::to_string(child) + " has exited");
  }
  int status = 0;
  EXPECT_EQ(waitpid(child, &status, 0), child);
}

TEST(Target, GrabMissingProcess) {
  auto target = Target::grab(0x3ffffff0);
  ASSERT_FALSE(target.ok());
  EXPECT_EQ(target.error().message, "failed to grab pid 1073741808: no such process");
}

TEST(Target, GrabbedProcessSurvivesDestruction) {
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    pause();
    _exit(0);
  }
  { auto target = Target::grab(child); }
  EXPECT_EQ(::kill(child, 0), 0);
  ::kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
}

TEST(Target, MoveKeepsOwnership) {
  auto target = Target::spawn("/bin/true");
  ASSERT_TRUE(target.ok());
  Target moved = std::move(*target);
  ASSERT_TRUE(moved.start().ok());
  ASSERT_TRUE(waitForExit(moved));
  EXPECT_EQ(moved.exitStatus(), 0);
}

}  // namespace
}  // namespace dtrace::proc
