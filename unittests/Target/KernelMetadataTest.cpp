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

  // A cluster of 4 CTAs: num_ctas (Triton 3.6's launcher) and cluster_dims
  // (older launchers') both say so.
  m.numCtas = 4;
  json = llvm::json::parse(m.toJSON(CompileOptions::forTarget(Target{"cuda", "90"})));
  ASSERT_TRUE(static_cast<bool>(json));
  EXPECT_EQ(json->getAsObject()->getInteger("num_ctas"), 4);
  const llvm::json::Array *dims = json->getAsObject()->getArray("cluster_dims");
  ASSERT_NE(dims, nullptr);
  ASSERT_EQ(dims->size(), 3u);
  EXPECT_EQ((*dims)[0].getAsInteger(), 4);
  EXPECT_EQ((*dims)[1].getAsInteger(), 1);
}

// One model: what the code generators fill in and write as Triton's JSON is
// what the runtime reads back, every field.
TEST(KernelMetadata, RoundTripsThroughTritonsJSON) {
  KernelMetadata m;
  m.name = "k_tma";
  m.numWarps = 8;
  m.shared = 65536;
  m.globalScratchSize = 256;
  m.globalScratchAlign = 128;
  m.profileScratchSize = 64;
  m.profileScratchAlign = 8;
  m.tensorDescs.push_back({3, 2, 6, {64, 64}, false});
  m.tensorDescs.push_back({2, 4, 7, {128, 32}, true});
  llvm::Expected<KernelMetadata> back = KernelMetadata::fromJSON(
      m.toJSON(CompileOptions::forTarget(Target{"cuda", "90"})), "the test's JSON");
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->name, m.name);
  EXPECT_EQ(back->numWarps, 8);
  EXPECT_EQ(back->shared, 65536);
  EXPECT_EQ(back->globalScratchSize, 256);
  EXPECT_EQ(back->globalScratchAlign, 128);
  EXPECT_EQ(back->profileScratchSize, 64);
  EXPECT_EQ(back->profileScratchAlign, 8);
  EXPECT_EQ(back->tensorDescs, m.tensorDescs);
  EXPECT_EQ(back->arch, 90);

  llvm::Expected<KernelMetadata> bad =
      KernelMetadata::fromJSON("{\"num_warps\": 64}", "meta.json");
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(llvm::toString(bad.takeError()),
            "meta.json: \"num_warps\" must be an integer from 1 to 32");
}
