//===- PTXVersionTest.cpp - ptxas release -> PTX ISA, target names -------===//
#include "kiln/Backend/NVIDIA/NVPTX.h"

#include "llvm/Support/CommandLine.h"

#include <gtest/gtest.h>

using namespace kiln;

// Triton 3.6's mapping from the ptxas CUDA release to the PTX version.
TEST(PTXVersion, FollowsTheCudaRelease) {
  EXPECT_EQ(nvidia::ptxVersionForCuda(13, 0), 90);
  EXPECT_EQ(nvidia::ptxVersionForCuda(13, 1), 91);
  EXPECT_EQ(nvidia::ptxVersionForCuda(12, 8), 87);
  EXPECT_EQ(nvidia::ptxVersionForCuda(12, 6), 85);
  EXPECT_EQ(nvidia::ptxVersionForCuda(12, 4), 84);
  EXPECT_EQ(nvidia::ptxVersionForCuda(11, 8), 78);
  EXPECT_EQ(nvidia::ptxVersionForCuda(10, 2), 0);
}

TEST(PTXVersion, ArchSpecificFromHopperOn) {
  EXPECT_EQ(nvidia::smArch(Target{"cuda", "80"}), "sm_80");
  EXPECT_EQ(nvidia::smArch(Target{"cuda", "89"}), "sm_89");
  EXPECT_EQ(nvidia::smArch(Target{"cuda", "90"}), "sm_90a");
  EXPECT_EQ(nvidia::smArch(Target{"cuda", "100"}), "sm_100a");
}

TEST(ForeignPTX, MetadataFromTheText) {
  CompileOptions options = CompileOptions::forTarget(Target{"cuda", "90"});
  const char *ptx = ".version 8.7\n.target sm_90a\n.visible .entry k(\n.param .u64 k_param_0\n)\n"
                    ".reqntid 256\n{\nret;\n}\n";
  llvm::Expected<KernelMetadata> m = nvidia::metadataFromForeignPTX(ptx, options, std::nullopt);
  ASSERT_TRUE(static_cast<bool>(m)) << llvm::toString(m.takeError());
  EXPECT_EQ(m->name, "k");
  EXPECT_EQ(m->numWarps, 8);
  EXPECT_EQ(m->ptxVersion, 87);
  EXPECT_EQ(m->shared, 0);

  std::string twoKernels = std::string(ptx) + ".visible .entry other(\n)\n{\nret;\n}\n";
  llvm::Expected<KernelMetadata> two =
      nvidia::metadataFromForeignPTX(twoKernels, options, std::nullopt);
  ASSERT_FALSE(static_cast<bool>(two));
  EXPECT_NE(llvm::toString(two.takeError()).find("more than one kernel"), std::string::npos);

  llvm::Expected<KernelMetadata> odd =
      nvidia::metadataFromForeignPTX(".visible .entry k()\n.reqntid 48\n{}", options, std::nullopt);
  ASSERT_FALSE(static_cast<bool>(odd));
  EXPECT_NE(llvm::toString(odd.takeError()).find("whole number of warps"), std::string::npos);
}

// LLVM options are process-wide: a compile's llvmOptions hold for that
// compile only, and an unknown one is an error naming it.
TEST(LLVMOptions, SetForOneCompileOnly) {
  if (llvm::Expected<nvidia::Ptxas> ptxas = nvidia::findPtxas(); !ptxas) {
    llvm::consumeError(ptxas.takeError());
    GTEST_SKIP() << "no ptxas here";
  }
  const char *ir = "target triple = \"nvptx64-nvidia-cuda\"\n"
                   "define ptx_kernel void @k() {\n  ret void\n}\n";
  CompileOptions options = CompileOptions::forTarget(Target{"cuda", "90"});
  auto *flag = static_cast<llvm::cl::opt<bool> *>(
      llvm::cl::getRegisteredOptions().lookup("disable-lsr"));
  ASSERT_NE(flag, nullptr);
  KernelMetadata metadata;
  options.llvmOptions = {"-disable-lsr"};
  llvm::Expected<std::string> with = nvidia::generatePTX(ir, options, metadata);
  ASSERT_TRUE(static_cast<bool>(with)) << llvm::toString(with.takeError());
  EXPECT_TRUE(flag->getValue());
  options.llvmOptions.clear();
  llvm::Expected<std::string> without = nvidia::generatePTX(ir, options, metadata);
  ASSERT_TRUE(static_cast<bool>(without)) << llvm::toString(without.takeError());
  EXPECT_FALSE(flag->getValue());

  options.llvmOptions = {"-kiln-no-such-option"};
  llvm::Expected<std::string> unknown = nvidia::generatePTX(ir, options, metadata);
  ASSERT_FALSE(static_cast<bool>(unknown));
  EXPECT_NE(llvm::toString(unknown.takeError()).find("unknown LLVM option '-kiln-no-such-option'"),
            std::string::npos);
}
