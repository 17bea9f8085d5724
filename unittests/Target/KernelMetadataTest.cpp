//===- KernelMetadataTest.cpp - the metadata comment and JSON ------------===//
#include "kiln/Base/KernelMetadata.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

using namespace kiln;

TEST(KernelMetadata, RoundTripsThroughTheComment) {
  KernelMetadata m;
  m.name = "k_softmax";
  m.numWarps = 8;
  m.shared = 4096;
  m.globalScratchSize = 128;
  m.globalScratchAlign = 128;
  m.ptxVersion = 90;
  std::string text = m.toComment("//") + ".version 9.0\n";
  std::optional<KernelMetadata> back = KernelMetadata::fromComment(text);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->name, "k_softmax");
  EXPECT_EQ(back->numWarps, 8);
  EXPECT_EQ(back->shared, 4096);
  EXPECT_EQ(back->globalScratchSize, 128);
  EXPECT_EQ(back->globalScratchAlign, 128);
  EXPECT_EQ(back->ptxVersion, 90);

  EXPECT_FALSE(KernelMetadata::fromComment(".version 9.0\n").has_value());
  EXPECT_FALSE(KernelMetadata::fromComment("// kiln.metadata: {not json\n").has_value());
  EXPECT_FALSE(KernelMetadata::fromComment("// kiln.metadata: {\"num_warps\": 0}\n").has_value());
}

TEST(KernelMetadata, JSONHasTheLauncherKeys) {
  KernelMetadata m;
  m.name = "k";
  m.numWarps = 4;
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse(m.toJSON(CompileOptions::forTarget(Target{"cuda", "90"})));
  ASSERT_TRUE(static_cast<bool>(json));
  const llvm::json::Object *object = json->getAsObject();
  ASSERT_NE(object, nullptr);
  for (const char *key : {"name", "num_warps", "num_ctas", "shared", "global_scratch_size",
                          "global_scratch_align", "profile_scratch_size",
                          "profile_scratch_align", "tmem_size", "target", "cluster_dims"})
    EXPECT_NE(object->get(key), nullptr) << key;
  EXPECT_EQ(object->getInteger("num_warps"), 4);
  EXPECT_EQ(object->getObject("target")->getString("backend"), "cuda");
}
