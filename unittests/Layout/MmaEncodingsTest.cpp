//===- MmaEncodingsTest.cpp - NVIDIA tensor-core layouts ------------------===//
//
// Fixtures: Triton's expected bases for nvidia_mma v2/v3, their dot operands
// and the nvmma_shared swizzles (unittest/Dialect/TritonGPU/
// LinearLayoutConversionsTest.cpp), plus the corpus kernels' own
// parameters derived by hand from the same rules. Each swizzle is also
// checked against the hardware's address formula: within a row of
// swizzlingByteWidth bytes, 16-byte chunk c of row r sits at c ^ (r /
// perPhase % maxPhase).
//
//===----------------------------------------------------------------------===//
#include "LayoutTestUtil.h"

#include "kiln/Layout/Encodings.h"

#include <gtest/gtest.h>

using namespace kiln::layout;
using namespace kiln::layout::test;
using LL = LinearLayout;
using U = llvm::SmallVector<unsigned>;

namespace {

const std::vector<std::string> kDims2 = {"dim0", "dim1"};

template <typename Enc> LL toLL(const Enc &enc, llvm::ArrayRef<int64_t> shape) {
  llvm::Expected<LL> ll = toLinearLayout(enc, shape);
  if (!ll) {
    ADD_FAILURE() << llvm::toString(ll.takeError());
    return LL();
  }
  return *ll;
}

template <typename Enc> std::string errorOf(const Enc &enc, llvm::ArrayRef<int64_t> shape) {
  llvm::Expected<LL> ll = toLinearLayout(enc, shape);
  if (ll)
    return "";
  return llvm::toString(ll.takeError());
}

LL dist(std::vector<LL::Basis> reg, std::vector<LL::Basis> lane, std::vector<LL::Basis> warp) {
  return LL({{"register", reg}, {"lane", lane}, {"warp", warp}, {"block", {}}}, kDims2);
}

LL shared(std::vector<LL::Basis> offset) {
  return LL({{"offset", offset}, {"block", {}}}, kDims2);
}

NvidiaMmaEncoding mma(unsigned version, U instrShape, U warps) {
  return NvidiaMmaEncoding{version, 0, warps, instrShape, {}};
}

NvidiaDotOperandEncoding dot(NvidiaMmaEncoding parent, unsigned opIdx, unsigned kWidth) {
  return NvidiaDotOperandEncoding{opIdx, kWidth, parent};
}

NVMMASharedEncoding nvmma(unsigned swizzle, unsigned bits, bool transposed = false) {
  NVMMASharedEncoding enc;
  enc.swizzlingByteWidth = swizzle;
  enc.elementBitWidth = bits;
  enc.transposed = transposed;
  return enc;
}

// --- nvidia_mma -------------------------------------------------------------

TEST(MmaEncodings, V2Fragments) {
  // One warp's m16n8 fragment: lane/4 picks the row, lane%4 a pair of columns.
  NvidiaMmaEncoding v2 = mma(2, {16, 8}, {1, 1});
  EXPECT_EQ(toLL(v2, {16, 8}),
            dist({{0, 1}, {8, 0}}, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, {}));
  EXPECT_EQ(toLL(v2, {16, 16}),
            dist({{0, 1}, {8, 0}, {0, 8}}, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, {}));
  EXPECT_EQ(toLL(v2, {32, 32}), dist({{0, 1}, {8, 0}, {0, 8}, {0, 16}, {16, 0}},
                                     {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, {}));
  EXPECT_EQ(toLL(v2, {16, 128}), dist({{0, 1}, {8, 0}, {0, 8}, {0, 16}, {0, 32}, {0, 64}},
                                      {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, {}));
}

TEST(MmaEncodings, V2WarpsGoAlongNFirst) {
  // Version 2 warps are row-major: warp 1 is the next 8 columns.
  EXPECT_EQ(toLL(mma(2, {16, 8}, {2, 2}), {32, 16}),
            dist({{0, 1}, {8, 0}}, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, {{0, 8}, {16, 0}}));
}

TEST(MmaEncodings, V3WarpGroups) {
  for (U instr : {U{16, 16, 8}, U{16, 8, 8}})
    EXPECT_EQ(toLL(mma(3, instr, {4, 1}), {64, 16}),
              dist({{0, 1}, {8, 0}, {0, 8}}, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}},
                   {{16, 0}, {32, 0}}));
  EXPECT_EQ(toLL(mma(3, {16, 16, 8}, {4, 1}), {128, 16}),
            dist({{0, 1}, {8, 0}, {0, 8}, {64, 0}}, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}},
                 {{16, 0}, {32, 0}}));
  NvidiaMmaEncoding w4x2 = mma(3, {16, 32, 16}, {4, 2});
  EXPECT_EQ(toLL(w4x2, {64, 32}),
            dist({{0, 1}, {8, 0}, {0, 8}, {0, 16}}, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}},
                 {{16, 0}, {32, 0}, {0, 0}}));
  EXPECT_EQ(toLL(w4x2, {128, 64}),
            dist({{0, 1}, {8, 0}, {0, 8}, {0, 16}, {64, 0}},
                 {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, {{16, 0}, {32, 0}, {0, 32}}));
  NvidiaMmaEncoding w4x4 = mma(3, {16, 16, 8}, {4, 4});
  EXPECT_EQ(toLL(w4x4, {32, 32}), dist({{0, 1}, {8, 0}, {0, 8}},
                                       {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}},
                                       {{16, 0}, {0, 0}, {0, 16}, {0, 0}}));
}

TEST(MmaEncodings, CorpusWgmmaAccumulator) {
  // matmul_f16: instrShape [16, 128, 16], 8 warps = two warp groups along M,
  // a 128x128 accumulator of 64 registers per thread.
  EXPECT_EQ(toLL(mma(3, {16, 128, 16}, {8, 1}), {128, 128}),
            dist({{0, 1}, {8, 0}, {0, 8}, {0, 16}, {0, 32}, {0, 64}},
                 {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, {{16, 0}, {32, 0}, {64, 0}}));
}

TEST(MmaEncodings, V3Batched) {
  // kiln's own rule (Triton has no accumulator layout of rank 3 for wgmma):
  // a warp's 16 x N tile in the last two dimensions, the warps in the order
  // M, N, batch; here all four along the batch.
  EXPECT_EQ(toLL(mma(3, {16, 32, 16}, {4, 1, 1}), {4, 64, 32}),
            LL({{"register", {{0, 0, 1}, {0, 8, 0}, {0, 0, 8}, {0, 0, 16}, {0, 16, 0}, {0, 32, 0}}},
                {"lane", {{0, 0, 2}, {0, 0, 4}, {0, 1, 0}, {0, 2, 0}, {0, 4, 0}}},
                {"warp", {{1, 0, 0}, {2, 0, 0}}},
                {"block", {}}},
               {"dim0", "dim1", "dim2"}));
  EXPECT_EQ(toLL(mma(3, {16, 32, 16}, {1, 4, 1, 1}), {1, 2, 64, 32}).getInDimSize("warp"), 4);
}

TEST(MmaEncodings, BadMmaParameters) {
  EXPECT_NE(errorOf(mma(2, {16, 16}, {1, 1}), {16, 16}), "");
  EXPECT_NE(errorOf(mma(3, {16, 128}, {4, 1}), {64, 128}), "");
  EXPECT_NE(errorOf(mma(3, {16, 12, 16}, {4, 1}), {64, 16}), "");
  EXPECT_NE(errorOf(mma(1, {16, 8}, {1, 1}), {16, 8}), "");
  EXPECT_NE(errorOf(mma(2, {16, 8}, {1, 1}), {16}), "");
}

// --- dot_op -----------------------------------------------------------------

TEST(MmaEncodings, DotOperandsV2) {
  NvidiaMmaEncoding one = mma(2, {16, 8}, {1, 1});
  EXPECT_EQ(toLL(dot(one, 0, 8), {16, 64}),
            dist({{0, 1}, {0, 2}, {0, 4}, {8, 0}, {0, 32}},
                 {{0, 8}, {0, 16}, {1, 0}, {2, 0}, {4, 0}}, {}));
  EXPECT_EQ(toLL(dot(one, 1, 8), {64, 8}), dist({{1, 0}, {2, 0}, {4, 0}, {32, 0}},
                                                {{8, 0}, {16, 0}, {0, 1}, {0, 2}, {0, 4}}, {}));
  // A's m16k16 fragment for f16 (kWidth 2): pairs along K, as mma.sync reads.
  EXPECT_EQ(toLL(dot(one, 0, 2), {16, 16}),
            dist({{0, 1}, {8, 0}, {0, 8}}, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, {}));
  NvidiaMmaEncoding four = mma(2, {16, 8}, {4, 1});
  EXPECT_EQ(toLL(dot(four, 0, 8), {128, 128}),
            dist({{0, 1}, {0, 2}, {0, 4}, {8, 0}, {0, 32}, {0, 64}, {64, 0}},
                 {{0, 8}, {0, 16}, {1, 0}, {2, 0}, {4, 0}}, {{16, 0}, {32, 0}}));
  // B's warps along M all need the same columns: broadcast.
  EXPECT_EQ(toLL(dot(four, 1, 8), {128, 64}),
            dist({{1, 0}, {2, 0}, {4, 0}, {32, 0}, {64, 0}, {0, 8}, {0, 16}, {0, 32}},
                 {{8, 0}, {16, 0}, {0, 1}, {0, 2}, {0, 4}}, {{0, 0}, {0, 0}}));
}

TEST(MmaEncodings, DotOperandAOfWgmma) {
  // wgmma's A from registers: the accumulator's rows, K in kWidth pairs.
  EXPECT_EQ(toLL(dot(mma(3, {16, 128, 16}, {8, 1}), 0, 2), {128, 16}),
            dist({{0, 1}, {8, 0}, {0, 8}}, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}},
                 {{16, 0}, {32, 0}, {64, 0}}));
  // Of a rank-3 (batched) wgmma layout, as Gluon's conversion tests use it:
  // Triton's bases, the warps along the batch dimension.
  EXPECT_EQ(toLL(dot(mma(3, {16, 32, 16}, {4, 1, 1}), 0, 2), {4, 64, 32}),
            LL({{"register", {{0, 0, 1}, {0, 8, 0}, {0, 0, 8}, {0, 0, 16}, {0, 16, 0}, {0, 32, 0}}},
                {"lane", {{0, 0, 2}, {0, 0, 4}, {0, 1, 0}, {0, 2, 0}, {0, 4, 0}}},
                {"warp", {{1, 0, 0}, {2, 0, 0}}},
                {"block", {}}},
               {"dim0", "dim1", "dim2"}));
  EXPECT_NE(errorOf(dot(mma(3, {16, 128, 16}, {8, 1}), 1, 2), {16, 128}), "");
  EXPECT_NE(errorOf(dot(mma(2, {16, 8}, {1, 1}), 0, 3), {16, 16}), "");
  EXPECT_NE(errorOf(dot(mma(2, {16, 8}, {1, 1}), 2, 2), {16, 16}), "");
}

// --- nvmma_shared -----------------------------------------------------------

TEST(MmaEncodings, NvmmaSharedTritonFixtures) {
  EXPECT_EQ(toLL(nvmma(32, 16), {8, 16}),
            shared({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 8}}));
  EXPECT_EQ(toLL(nvmma(32, 16), {128, 16}),
            shared({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 8}, {8, 0}, {16, 0},
                    {32, 0}, {64, 0}}));
  EXPECT_EQ(toLL(nvmma(64, 16), {8, 32}),
            shared({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 8}, {4, 16}}));
  EXPECT_EQ(toLL(nvmma(128, 16), {8, 64}),
            shared({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {1, 8}, {2, 16}, {4, 32}}));
  EXPECT_EQ(toLL(nvmma(128, 32), {8, 32}),
            shared({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 4}, {2, 8}, {4, 16}}));
}

TEST(MmaEncodings, NvmmaSharedCorpusTiles) {
  // matmul_f16's A buffer: 128x64 f16, one 128-byte swizzle row per tensor row.
  EXPECT_EQ(toLL(nvmma(128, 16), {128, 64}),
            shared({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {1, 8}, {2, 16}, {4, 32},
                    {8, 0}, {16, 0}, {32, 0}, {64, 0}}));
  // Its B buffer, transposed: 64x128 with dim0 contiguous.
  EXPECT_EQ(toLL(nvmma(128, 16, /*transposed=*/true), {64, 128}),
            shared({{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}, {8, 1}, {16, 2}, {32, 4},
                    {0, 8}, {0, 16}, {0, 32}, {0, 64}}));
  // Wider than a swizzle row: the rows of the first 64 columns come first.
  LL wide = toLL(nvmma(128, 16), {64, 128});
  EXPECT_EQ(wide.getBasis("offset", 9), (llvm::ArrayRef<int32_t>{8, 0}));
  EXPECT_EQ(wide.getBasis("offset", 12), (llvm::ArrayRef<int32_t>{0, 64}));
}

TEST(MmaEncodings, NvmmaSharedMatchesHardwareSwizzle) {
  for (unsigned swizzle : {32u, 64u, 128u})
    for (unsigned bits : {8u, 16u, 32u}) {
      SCOPED_TRACE(std::to_string(swizzle) + "B, " + std::to_string(bits) + "-bit");
      int32_t rowElems = 8 * swizzle / bits, chunkElems = 128 / bits;
      int32_t perPhase = 128 / swizzle, maxPhase = swizzle / 16;
      LL ll = toLL(nvmma(swizzle, bits), {32, rowElems});
      ASSERT_TRUE(ll.isInvertible());
      forEachInput(ll, [&](llvm::ArrayRef<int32_t> in) {
        int32_t offset = in[0], row = offset / rowElems, inRow = offset % rowElems;
        int32_t chunk = (inRow / chunkElems) ^ (row / perPhase % maxPhase);
        llvm::SmallVector<int32_t> want = {row, chunk * chunkElems + inRow % chunkElems};
        EXPECT_EQ(ll.apply(in), want) << "offset " << offset;
      });
    }
}

// Rank 3 and more, as TMA writes a box: every leading index is a run of
// whole rows, after all rows of the one before (the swizzle counts rows
// across them), and columns beyond a swizzle row outermost.
TEST(MmaEncodings, NvmmaSharedLeadingDimensionsAreRowsOfRows) {
  for (std::vector<int64_t> shape : {std::vector<int64_t>{2, 32, 64}, {4, 8, 64}, {2, 16, 128}}) {
    SCOPED_TRACE(std::to_string(shape[0]) + "x" + std::to_string(shape[1]) + "x" +
                 std::to_string(shape[2]));
    NVMMASharedEncoding enc = nvmma(128, 16);
    enc.rank = 3;
    llvm::Expected<LinearLayout> ll = toLinearLayout(enc, shape);
    ASSERT_TRUE(static_cast<bool>(ll)) << llvm::toString(ll.takeError());
    int32_t rowElems = 64, rows = int32_t(shape[0] * shape[1]);
    forEachInput(*ll, [&](llvm::ArrayRef<int32_t> in) {
      // Boxes of 64 columns (one 128-byte swizzle row), each rows x 64.
      int32_t box = in[0] / (rows * rowElems), inBox = in[0] % (rows * rowElems);
      int32_t row = inBox / rowElems, inRow = inBox % rowElems;
      int32_t col = ((inRow / 8) ^ (row % 8)) * 8 + inRow % 8 + box * rowElems;
      llvm::SmallVector<int32_t> want = {int32_t(row / shape[1]), int32_t(row % shape[1]), col};
      EXPECT_EQ(ll->apply(in), want) << "offset " << in[0];
    });
  }
}

// Unswizzled: the block row-major (TMA's SWIZZLE_NONE box), also when it is
// too narrow or short to swizzle.
TEST(MmaEncodings, NvmmaSharedUnswizzledIsRowMajor) {
  for (std::vector<int64_t> shape : {std::vector<int64_t>{64, 64}, {4, 8}, {16, 32}}) {
    llvm::Expected<LinearLayout> ll = toLinearLayout(nvmma(0, 16), shape);
    ASSERT_TRUE(static_cast<bool>(ll)) << llvm::toString(ll.takeError());
    forEachInput(*ll, [&](llvm::ArrayRef<int32_t> in) {
      llvm::SmallVector<int32_t> want = {int32_t(in[0] / shape[1]), int32_t(in[0] % shape[1])};
      EXPECT_EQ(ll->apply(in), want) << "offset " << in[0];
    });
  }
}

TEST(MmaEncodings, NvmmaSharedErrors) {
  EXPECT_NE(errorOf(nvmma(128, 16), {4, 64}), "");   // fewer than 8 rows
  EXPECT_NE(errorOf(nvmma(128, 16), {64, 32}), "");  // narrower than a swizzle row
  EXPECT_NE(errorOf(nvmma(128, 12), {64, 64}), "");
  EXPECT_NE(errorOf(nvmma(128, 16), {64, 48}), "");
  EXPECT_NE(errorOf(nvmma(128, 16), {8, 8, 64}), ""); // rank 3 encoding needed
}

} // namespace
