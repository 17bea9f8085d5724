//===- RuntimeTest.cpp - the CUDA runtime without a GPU -------------------===//
//
// Kernel metadata, Triton's parameter layout, scratch sizes, reading back a
// poisoned output, and the driver's absence: all that needs no GPU.
//
//===----------------------------------------------------------------------===//
#include "kiln/Backend/NVIDIA/Runtime/CudaDriver.h"
#include "kiln/Backend/NVIDIA/Runtime/CudaRun.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace kiln;

namespace {

std::string errorOf(llvm::Error e) { return llvm::toString(std::move(e)); }

TEST(KernelMetadata, ReadsTritonsFields) {
  auto m = runtime::parseKernelMetadata(
      R"({"name": "k_softmax", "num_warps": 8, "num_ctas": 1, "shared": 65536,
          "global_scratch_size": 128, "global_scratch_align": 16,
          "profile_scratch_size": 0, "profile_scratch_align": 1,
          "target": {"backend": "cuda", "arch": 90, "warp_size": 32},
          "cluster_dims": [1, 1, 1], "hash": "abc"})",
      "k.json");
  ASSERT_TRUE(bool(m)) << errorOf(m.takeError());
  EXPECT_EQ(m->name, "k_softmax");
  EXPECT_EQ(m->numWarps, 8);
  EXPECT_EQ(m->shared, 65536);
  EXPECT_EQ(m->globalScratchSize, 128);
  EXPECT_EQ(m->globalScratchAlign, 16);
  EXPECT_EQ(m->profileScratchSize, 0);
  EXPECT_EQ(m->arch, 90);
}

TEST(KernelMetadata, Defaults) {
  auto m = runtime::parseKernelMetadata(R"({"name": "k"})", "k.json");
  ASSERT_TRUE(bool(m)) << errorOf(m.takeError());
  EXPECT_EQ(m->numWarps, 4);
  EXPECT_EQ(m->shared, 0);
  EXPECT_EQ(m->globalScratchSize, 0);
  EXPECT_FALSE(m->arch.has_value());
}

TEST(KernelMetadata, Errors) {
  auto err = [](const char *json) {
    auto m = runtime::parseKernelMetadata(json, "k.json");
    return m ? std::string("parsed") : errorOf(m.takeError());
  };
  EXPECT_EQ(err("[1]"), "k.json: kernel metadata must be a JSON object");
  EXPECT_NE(err("{").find("k.json: malformed JSON"), std::string::npos);
  EXPECT_EQ(err(R"({"num_warps": 4})"), "k.json: missing \"name\" (the kernel's entry point)");
  EXPECT_EQ(err(R"({"name": "k", "num_warps": 0})"),
            "k.json: \"num_warps\" must be an integer from 1 to 32");
  EXPECT_EQ(err(R"({"name": "k", "shared": -1})"),
            "k.json: \"shared\" must be an integer from 0 to 2147483648");
  EXPECT_EQ(err(R"({"name": "k", "global_scratch_size": "big"})"),
            "k.json: \"global_scratch_size\" must be an integer from 0 to 4294967296");
  EXPECT_EQ(err(R"({"name": "k", "num_ctas": 2})"), "parsed");
  EXPECT_EQ(err(R"({"name": "k", "num_ctas": 3})"),
            "k.json: \"num_ctas\" is 3: clusters of 1, 2, 4, 8 or 16 CTAs can be launched");
  // 16 is sm_90's largest cluster (not portable: the launcher opts in).
  EXPECT_EQ(err(R"({"name": "k", "num_ctas": 16})"), "parsed");
}

/// The add_f32 corpus case's arguments, and then some scalars.
interp::RunSpec specOf(const char *args) {
  auto spec = interp::parseRunSpec(std::string(R"({"args": [)") + args + "]}", ".");
  EXPECT_TRUE(bool(spec)) << errorOf(spec.takeError());
  return spec ? *spec : interp::RunSpec();
}

template <typename T> T read(const std::vector<uint8_t> &bytes) {
  EXPECT_EQ(bytes.size(), sizeof(T));
  T v;
  std::memcpy(&v, bytes.data(), sizeof(T));
  return v;
}

TEST(KernelParams, TritonOrderThenHiddenPointers) {
  interp::RunSpec spec = specOf(R"(
    {"name": "x", "kind": "buffer", "dtype": "f32", "shape": [4]},
    {"name": "n", "kind": "scalar", "dtype": "i32", "value": -7},
    {"name": "h", "kind": "scalar", "dtype": "f16", "value": 1.5},
    {"name": "s", "kind": "scalar", "dtype": "f32", "value": 0.25},
    {"name": "b", "kind": "scalar", "dtype": "i1", "value": 1},
    {"name": "big", "kind": "scalar", "dtype": "u64", "value": 18446744073709551615},
    {"name": "y", "kind": "buffer", "dtype": "i8", "shape": [4], "role": "output"})");
  uint64_t addresses[] = {0x7f0000001000, 0, 0, 0, 0, 0, 0x7f0000002000};
  auto params = runtime::packParams(spec, addresses, 0, 0x7f0000003000);
  ASSERT_TRUE(bool(params)) << errorOf(params.takeError());
  ASSERT_EQ(params->values.size(), 9u); // 7 arguments, then 2 scratch pointers
  EXPECT_EQ(read<uint64_t>(params->values[0]), 0x7f0000001000u);
  EXPECT_EQ(read<int32_t>(params->values[1]), -7);
  EXPECT_EQ(read<uint16_t>(params->values[2]), 0x3e00); // 1.5 as f16
  EXPECT_EQ(read<float>(params->values[3]), 0.25f);
  EXPECT_EQ(read<uint8_t>(params->values[4]), 1);
  EXPECT_EQ(read<uint64_t>(params->values[5]), ~uint64_t(0));
  EXPECT_EQ(read<uint64_t>(params->values[6]), 0x7f0000002000u);
  EXPECT_EQ(read<uint64_t>(params->values[7]), 0u); // no global scratch: null
  EXPECT_EQ(read<uint64_t>(params->values[8]), 0x7f0000003000u);
  std::vector<void *> pointers = params->pointers();
  ASSERT_EQ(pointers.size(), 9u);
  EXPECT_EQ(pointers[1], params->values[1].data());
}

TEST(KernelParams, TensorDescriptorsNeedTheKernelsTMAMetadata) {
  interp::RunSpec spec = specOf(
      R"({"name": "d", "kind": "tensor_descriptor", "dtype": "f16", "shape": [8, 8]})");
  uint64_t addresses[] = {0x1000};
  auto params = runtime::packParams(spec, addresses, 0, 0);
  ASSERT_FALSE(bool(params));
  EXPECT_NE(errorOf(params.takeError())
                .find("argument 'd': the kernel's metadata has no tensordesc_meta entry"),
            std::string::npos);
}

TEST(KernelMetadata, ReadsTensordescMeta) {
  auto m = runtime::parseKernelMetadata(
      R"({"name": "k", "tensordesc_meta": [{"swizzle": 3, "elem_size": 2, "elem_type": 6,
          "block_size": [128, 64], "fp4_padded": false}]})",
      "k.json");
  ASSERT_TRUE(bool(m)) << errorOf(m.takeError());
  ASSERT_EQ(m->tensorDescs.size(), 1u);
  EXPECT_EQ(m->tensorDescs[0].swizzle, 3);
  EXPECT_EQ(m->tensorDescs[0].elemSize, 2);
  EXPECT_EQ(m->tensorDescs[0].elemType, 6);
  EXPECT_EQ(m->tensorDescs[0].blockSize, (std::vector<int64_t>{128, 64}));
  auto bad = runtime::parseKernelMetadata(R"({"name": "k", "tensordesc_meta": [{"swizzle": 3}]})",
                                          "k.json");
  ASSERT_FALSE(bool(bad));
  EXPECT_NE(errorOf(bad.takeError()).find("each \"tensordesc_meta\" entry needs"),
            std::string::npos);
}

/// The corpus's matmul_tma_persistent: A is [M, K] f16 in 128x64 blocks.
runtime::KernelMetadata tmaMeta(int swizzle, std::vector<int64_t> box) {
  runtime::KernelMetadata meta;
  meta.name = "k";
  meta.tensorDescs.push_back({swizzle, 2, /*f16*/ 6, std::move(box), false});
  return meta;
}

TEST(KernelParams, TensorDescriptorIsItsMapThenShapeAndStrides) {
  interp::RunSpec spec = specOf(R"(
    {"name": "a", "kind": "tensor_descriptor", "dtype": "f16", "shape": [512, 320],
     "block": [128, 64]},
    {"name": "m", "kind": "scalar", "dtype": "i32", "value": 512})");
  uint64_t addresses[] = {0x7f0000010000, 0};
  std::vector<runtime::TensorMapRequest> seen;
  runtime::TensorMapEncoder encode = [&](const runtime::TensorMapRequest &r) {
    seen.push_back(r);
    runtime::TensorMapBytes map;
    for (unsigned i = 0; i < map.size(); ++i)
      map[i] = uint8_t(i + 1);
    return llvm::Expected<runtime::TensorMapBytes>(map);
  };
  auto params = runtime::packParams(spec, addresses, 0, 0, tmaMeta(3, {128, 64}), encode);
  ASSERT_TRUE(bool(params)) << errorOf(params.takeError());
  // The map, 2 shape i32s, 2 stride i64s, m, then the 2 scratch pointers.
  ASSERT_EQ(params->values.size(), 8u);
  ASSERT_EQ(params->values[0].size(), 128u);
  EXPECT_EQ(params->values[0][0], 1);
  EXPECT_EQ(params->values[0][127], 128);
  EXPECT_EQ(read<int32_t>(params->values[1]), 512);
  EXPECT_EQ(read<int32_t>(params->values[2]), 320);
  EXPECT_EQ(read<int64_t>(params->values[3]), 320);
  EXPECT_EQ(read<int64_t>(params->values[4]), 1);
  EXPECT_EQ(read<int32_t>(params->values[5]), 512);
  // The encode call: innermost dimension first, byte strides of the outer
  // dimensions, the box, 128-byte swizzle, L2 promotion 128 B, zero fill.
  ASSERT_EQ(seen.size(), 1u);
  const runtime::TensorMapRequest &r = seen[0];
  EXPECT_EQ(r.dataType, 6); // CU_TENSOR_MAP_DATA_TYPE_FLOAT16
  EXPECT_EQ(r.rank, 2u);
  EXPECT_EQ(r.address, 0x7f0000010000u);
  EXPECT_EQ(r.globalDim[0], 320u);
  EXPECT_EQ(r.globalDim[1], 512u);
  EXPECT_EQ(r.globalStrides[0], 640u);
  EXPECT_EQ(r.boxDim[0], 64u);
  EXPECT_EQ(r.boxDim[1], 128u);
  EXPECT_EQ(r.elementStrides[0], 1u);
  EXPECT_EQ(r.swizzle, 3);
  EXPECT_EQ(r.interleave, 0);
  EXPECT_EQ(r.l2Promotion, 2);
  EXPECT_EQ(r.oobFill, 0);
  // Without an encoder the parameters are checked and the map left zero.
  auto checked = runtime::packParams(spec, addresses, 0, 0, tmaMeta(3, {128, 64}));
  ASSERT_TRUE(bool(checked)) << errorOf(checked.takeError());
  EXPECT_EQ(checked->values[0], std::vector<uint8_t>(128, 0));
}

TEST(TensorMap, BadShapesBlocksAndAlignments) {
  auto err = [](const char *arg, runtime::KernelMetadata meta, uint64_t address = 0x1000) {
    interp::RunSpec spec = specOf(arg);
    uint64_t addresses[] = {address};
    auto p = runtime::packParams(spec, addresses, 0, 0, meta);
    return p ? std::string("packed") : errorOf(p.takeError());
  };
  const char *a = R"({"name": "a", "kind": "tensor_descriptor", "dtype": "f16",
                      "shape": [64, 64], "block": [64, 64]})";
  EXPECT_EQ(err(a, tmaMeta(3, {64, 64})), "packed");
  EXPECT_EQ(err(a, tmaMeta(3, {64, 64}), 0x1008), "argument 'a': TMA needs a 16-byte aligned tensor");
  EXPECT_EQ(err(a, tmaMeta(3, {64})),
            "argument 'a': the kernel's TMA box has 1 dimensions but the tensor has 2");
  EXPECT_EQ(err(a, tmaMeta(3, {48, 64})),
            "argument 'a': the block's dimension 0 (64) is not a multiple of the kernel's TMA "
            "box (48)");
  EXPECT_EQ(err(a, tmaMeta(2, {64, 64})),
            "argument 'a': the TMA box's rows (128 bytes) exceed the 64-byte swizzle");
  EXPECT_EQ(err(R"({"name": "a", "kind": "tensor_descriptor", "dtype": "f16", "shape": [8, 7]})",
                tmaMeta(0, {8, 8})),
            "argument 'a': TMA needs 16-byte multiples as strides; dimension 0 has a stride of "
            "14 bytes");
  EXPECT_EQ(err(R"({"name": "a", "kind": "tensor_descriptor", "dtype": "f32", "shape": [64, 64]})",
                tmaMeta(3, {64, 64})),
            "argument 'a': the kernel reads 2-byte elements but the argument's dtype has 4");
  EXPECT_EQ(err(R"({"name": "a", "kind": "tensor_descriptor", "dtype": "f16", "shape": [512, 512]})",
                tmaMeta(0, {512, 8})),
            "argument 'a': the kernel's TMA box dimension 0 (512) is outside 1..256");
}

TEST(TensorMap, HostDataTypes) {
  EXPECT_EQ(runtime::hostTensorMapDataType(6), 6);  // f16
  EXPECT_EQ(runtime::hostTensorMapDataType(10), 9); // bf16
  EXPECT_EQ(runtime::hostTensorMapDataType(9), 8);  // f64
  EXPECT_EQ(runtime::hostTensorMapDataType(8), 10); // f32, flushing denormals
  EXPECT_EQ(runtime::hostTensorMapDataType(0), 0);  // u8
}

TEST(Scratch, SizePerProgramTimesPrograms) {
  EXPECT_EQ(runtime::scratchBytes(0, {97, 1, 1}, 1), 0u);
  EXPECT_EQ(runtime::scratchBytes(256, {5, 9, 2}, 1), 256u * 90);
  EXPECT_EQ(runtime::scratchBytes(64, {2147483647, 65535, 65535}, 1),
            64ull * 2147483647ull * 65535ull * 65535ull);
}

TEST(CudaTarget, Parses) {
  auto cap = runtime::parseCudaTarget("cuda:90");
  ASSERT_TRUE(bool(cap));
  EXPECT_EQ(*cap, 90);
  for (const char *bad : {"hip:gfx942", "cuda:", "cuda:x", "cuda:0", "90"}) {
    auto r = runtime::parseCudaTarget(bad);
    ASSERT_FALSE(bool(r)) << bad;
    llvm::consumeError(r.takeError());
  }
}

TEST(CudaDriver, MissingLibraryIsAnError) {
  auto d = runtime::CudaDriver::load("libkiln-no-such-driver.so.1");
  ASSERT_FALSE(bool(d));
  EXPECT_EQ(errorOf(d.takeError()), "no CUDA driver (libkiln-no-such-driver.so.1) on this machine");
}

TEST(CudaDriver, LibraryWithoutTheApiIsAnError) {
  // libm opens, but has no cuInit.
  auto d = runtime::CudaDriver::load("libm.so.6");
  ASSERT_FALSE(bool(d));
  EXPECT_EQ(errorOf(d.takeError()), "the CUDA driver libm.so.6 has no cuInit (too old a driver?)");
}

TEST(Readback, PoisonedElementsStayUnwritten) {
  interp::Memory memory;
  unsigned id = memory.addBuffer("y", interp::ElemKind::F32, {4}, /*poison=*/true);
  interp::Buffer &b = memory.buffer(id);
  float two = 2;
  std::memcpy(&b.bytes[4], &two, 4); // what a device wrote to element 1
  memory.markWrittenUnlessPoison(id);
  EXPECT_FALSE(memory.isWritten(id, 0, 4));
  EXPECT_TRUE(memory.isWritten(id, 4, 4));
  EXPECT_FALSE(memory.isWritten(id, 8, 4));
  EXPECT_FALSE(memory.isWritten(id, 12, 4));
}

} // namespace
