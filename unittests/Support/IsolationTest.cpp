//===- IsolationTest.cpp - work in a child process ------------------------===//
#include "kiln/Support/Isolation.h"

#include "gtest/gtest.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

using namespace kiln;
using llvm::Expected;

namespace {

std::string errorOf(Expected<std::string> result) {
  if (result)
    return "no error, result '" + *result + "'";
  return llvm::toString(result.takeError());
}

TEST(Isolation, HandsTheResultBack) {
  // Large and binary: it travels through a file, not a pipe buffer.
  std::string big(8 << 20, '\0');
  for (size_t i = 0; i < big.size(); ++i)
    big[i] = static_cast<char>(i * 7);
  Expected<std::string> result = runIsolated("work", [&]() -> Expected<std::string> {
    if (!progress::enabled())
      return "progress is off in the child";
    return big;
  });
  ASSERT_TRUE(static_cast<bool>(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(*result, big);
  EXPECT_FALSE(progress::enabled());
}

TEST(Isolation, HandsTheErrorBack) {
  EXPECT_EQ(errorOf(runIsolated("work", []() -> Expected<std::string> {
              return llvm::createStringError("bad input at k.ttir:3");
            })),
            "bad input at k.ttir:3");
}

TEST(Isolation, HandsTheExitStatusBack) {
  Expected<int> status = runIsolatedStatus("tool", [] { return 3; });
  ASSERT_TRUE(static_cast<bool>(status)) << llvm::toString(status.takeError());
  EXPECT_EQ(*status, 3);
  Expected<int> crashed = runIsolatedStatus("tool", []() -> int { std::abort(); });
  ASSERT_FALSE(static_cast<bool>(crashed));
  EXPECT_EQ(llvm::toString(crashed.takeError()), "tool crashed (SIGABRT)");
}

TEST(Isolation, NamesTheSignalThePhaseAndTheStep) {
  EXPECT_EQ(errorOf(runIsolated("work", []() -> Expected<std::string> {
              progress::setPhase("while parsing 'k.ttir'");
              progress::setPhase("in stage 'ttir'");
              progress::beginStep("pass 'ttir.cse' (core)");
              std::raise(SIGSEGV);
              return "";
            })),
            "work crashed (SIGSEGV) in stage 'ttir', in pass 'ttir.cse' (core)");
}

TEST(Isolation, ReportsOnlyStepsStillRunning) {
  EXPECT_EQ(errorOf(runIsolated("work", []() -> Expected<std::string> {
              progress::setPhase("in stage 'ttir'");
              progress::beginStep("pass 'a'");
              progress::endStep();
              progress::beginStep("pass 'b'");
              std::exit(0);
            })),
            "work exited with status 0 without a result in stage 'ttir', in pass 'b'");
  EXPECT_EQ(errorOf(runIsolated("work", []() -> Expected<std::string> {
              progress::beginStep("pass 'a'");
              progress::endStep();
              _exit(3);
            })),
            "work exited with status 3 without a result");
}

TEST(Isolation, NamesStepsOfOtherThreads) {
  EXPECT_EQ(errorOf(runIsolated("work", []() -> Expected<std::string> {
              progress::beginStep("pass 'a'");
              std::thread([] { progress::beginStep("pass 'b'"); }).join();
              std::abort();
            })),
            "work crashed (SIGABRT) in pass 'b' (other threads were in pass 'a')");
}

TEST(Isolation, NamesTerminate) {
  EXPECT_EQ(errorOf(runIsolated("work", []() -> Expected<std::string> { std::terminate(); })),
            "work crashed (SIGABRT, std::terminate() was called)");
}

TEST(Isolation, KilledIsNotCrashed) {
  EXPECT_EQ(errorOf(runIsolated("work", []() -> Expected<std::string> {
              std::raise(SIGTERM);
              return "";
            })),
            "work was killed (SIGTERM)");
}

TEST(Isolation, LeavesNoChildBehind) {
  for (int i = 0; i < 3; ++i)
    consumeError(runIsolated("work", []() -> Expected<std::string> { std::abort(); })
                     .takeError());
  errno = 0;
  EXPECT_EQ(waitpid(-1, nullptr, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
}

bool gone(pid_t pid) {
  if (kill(pid, 0) != 0)
    return errno == ESRCH;
  // A zombie waiting for a reaper has stopped running too.
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string pidField, name, state;
  stat >> pidField >> name >> state;
  return state == "Z";
}

TEST(Isolation, ChildDiesWithItsParent) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t parent = fork();
  ASSERT_GE(parent, 0);
  if (parent == 0) {
    // The parent of an isolated child that hangs.
    close(fds[0]);
    consumeError(runIsolated("work", [&]() -> Expected<std::string> {
                   pid_t self = getpid();
                   (void)!write(fds[1], &self, sizeof self);
                   for (;;)
                     pause();
                 }).takeError());
    _exit(0);
  }
  close(fds[1]);
  pid_t child = 0;
  ASSERT_EQ(read(fds[0], &child, sizeof child), static_cast<ssize_t>(sizeof child));
  close(fds[0]);
  kill(parent, SIGKILL);
  ASSERT_EQ(waitpid(parent, nullptr, 0), parent);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!gone(child) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(gone(child)) << "the isolated child " << child << " outlived its parent";
  if (!gone(child))
    kill(child, SIGKILL);
}

TEST(Isolation, ProgressIsANoOpOutsideAChild) {
  EXPECT_FALSE(progress::enabled());
  progress::setPhase("in stage 'ttir'");
  progress::beginStep("pass 'a'");
  progress::endStep();
}

TEST(Isolation, FlagsThenEnvironmentThenDefault) {
  unsetenv("KILN_ISOLATE");
  EXPECT_TRUE(*wantsIsolation(false, false, true));
  EXPECT_FALSE(*wantsIsolation(false, false, false));
  EXPECT_TRUE(*wantsIsolation(true, false, false));
  EXPECT_FALSE(*wantsIsolation(false, true, true));
  Expected<bool> both = wantsIsolation(true, true, true);
  ASSERT_FALSE(static_cast<bool>(both));
  EXPECT_EQ(llvm::toString(both.takeError()), "--isolate and --no-isolate contradict each other");

  setenv("KILN_ISOLATE", "Off", 1);
  EXPECT_FALSE(*wantsIsolation(false, false, true));
  EXPECT_TRUE(*wantsIsolation(true, false, true));
  setenv("KILN_ISOLATE", "yes", 1);
  EXPECT_TRUE(*wantsIsolation(false, false, false));
  setenv("KILN_ISOLATE", "", 1);
  EXPECT_FALSE(*wantsIsolation(false, false, false));
  setenv("KILN_ISOLATE", "2", 1);
  Expected<bool> bad = wantsIsolation(false, false, true);
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "KILN_ISOLATE is '2'; use 1 or 0 (or true/false, on/off, yes/no)");
  unsetenv("KILN_ISOLATE");
}

} // namespace
