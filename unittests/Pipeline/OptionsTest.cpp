//===- OptionsTest.cpp - targets and compile options ----------------------===//
#include "kiln/Base/Options.h"

#include "gtest/gtest.h"

using namespace kiln;

namespace {

TEST(Target, ParsesTritonNames) {
  llvm::Expected<Target> cuda = Target::parse("cuda:90");
  ASSERT_TRUE(static_cast<bool>(cuda));
  EXPECT_EQ(cuda->backend(), "nvidia");
  EXPECT_EQ(cuda->capability(), 90);
  EXPECT_EQ(cuda->str(), "cuda:90");

  llvm::Expected<Target> hip = Target::parse("hip:gfx942");
  ASSERT_TRUE(static_cast<bool>(hip));
  EXPECT_EQ(hip->backend(), "amd");
  EXPECT_EQ(hip->capability(), 0);
}

TEST(Target, RejectsMalformedNames) {
  for (const char *bad : {"cuda", "cuda:", "cuda:sm_90", "cuda:12", "cuda:090", "hip:942",
                          "hip:gfx", "hip:gfxzzz",
                          "metal:1", ":90"}) {
    llvm::Expected<Target> target = Target::parse(bad);
    EXPECT_FALSE(static_cast<bool>(target)) << bad;
    if (!target) {
      std::string message = llvm::toString(target.takeError());
      EXPECT_NE(message.find(bad), std::string::npos) << message;
    }
  }
}

TEST(CompileOptions, WarpSizeFollowsTheTarget) {
  EXPECT_EQ(CompileOptions::forTarget(Target{"cuda", "90"}).warpSize, 32);
  EXPECT_EQ(CompileOptions::forTarget(Target{"hip", "gfx942"}).warpSize, 64);
  EXPECT_EQ(CompileOptions::forTarget(Target{"hip", "gfx1100"}).warpSize, 32);
}

TEST(CompileOptions, CanonicalFormNamesEveryOption) {
  CompileOptions options;
  options.target = Target{"cuda", "80"};
  options.numWarps = 8;
  EXPECT_EQ(options.str(), "target=cuda:80 num-warps=8 num-stages=3 num-ctas=1 warp-size=32");
}

TEST(CompileOptions, CodegenOptionsAppearWhenNotDefault) {
  CompileOptions options;
  options.target = Target{"cuda", "90"};
  options.enableFpFusion = false;
  options.enableReflectFtz = false;
  options.maxnreg = 64;
  options.sched4reg = true;
  options.minSharedMem = 4096;
  options.ptxasOptions = {"--maxrregcount", "64"};
  EXPECT_EQ(options.str(), "target=cuda:90 num-warps=4 num-stages=3 num-ctas=1 warp-size=32 "
                           "fp-fusion=off reflect-ftz=off maxnreg=64 sched4reg=on "
                           "min-shared-mem=4096 ptxas-option=14:--maxrregcount ptxas-option=2:64");
  // The length prefix keeps one flag from reading as two.
  CompileOptions joined = options, split = options;
  joined.ptxasOptions = {"-a ptxas-option=2:-b"};
  split.ptxasOptions = {"-a", "-b"};
  EXPECT_NE(joined.str(), split.str());
}

} // namespace
