//===- TritonGPULinearLayoutTest.cpp - ttg encodings through the engine ---===//
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Layout/Encodings.h"
#include "kiln/Layout/MatrixAccess.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinTypes.h"
#include "gtest/gtest.h"

#include <set>

using namespace mlir;
using namespace kiln;
using layout::LinearLayout;

namespace {

class TritonGPULinearLayout : public ::testing::Test {
protected:
  TritonGPULinearLayout() { context.loadDialect<ttg::TritonGPUDialect>(); }
  ttg::LayoutEncodingInterface parse(llvm::StringRef text) {
    return dyn_cast_or_null<ttg::LayoutEncodingInterface>(parseAttribute(text, &context));
  }
  static LinearLayout expectLayout(llvm::Expected<LinearLayout> ll) {
    if (!ll) {
      ADD_FAILURE() << llvm::toString(ll.takeError());
      return {};
    }
    return *ll;
  }
  static std::string expectError(llvm::Expected<LinearLayout> ll) {
    if (ll) {
      ADD_FAILURE() << "expected an error, got " << ll->toString();
      return {};
    }
    return llvm::toString(ll.takeError());
  }
  static std::vector<LinearLayout::Basis> bases(const LinearLayout &ll, llvm::StringRef in) {
    return ll.getInDims()[ll.getInDimIndex(in)].bases;
  }
  MLIRContext context;
};

using B = std::vector<LinearLayout::Basis>;

TEST_F(TritonGPULinearLayout, BlockedWrapsInRegisters) {
  auto blocked = parse("#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], "
                       "warpsPerCTA = [4], order = [0]}>");
  ASSERT_TRUE(blocked);
  LinearLayout ll = expectLayout(blocked.toLinearLayout({1024}));
  EXPECT_EQ(bases(ll, "register"), (B{{1}, {2}, {512}}));
  EXPECT_EQ(bases(ll, "lane"), (B{{4}, {8}, {16}, {32}, {64}}));
  EXPECT_EQ(bases(ll, "warp"), (B{{128}, {256}}));
  EXPECT_TRUE(bases(ll, "block").empty());
}

TEST_F(TritonGPULinearLayout, BlockedIsTheEnginesLayout) {
  auto blocked = parse("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                       "warpsPerCTA = [2, 2], order = [1, 0], CGALayout = [[0, 1]]}>");
  ASSERT_TRUE(blocked);
  layout::BlockedEncoding enc{{1, 4}, {8, 4}, {2, 2}, {1, 0}, {{0, 1}}};
  for (llvm::SmallVector<int64_t> shape : {llvm::SmallVector<int64_t>{16, 64}, {128, 32}, {4, 8}})
    EXPECT_EQ(expectLayout(blocked.toLinearLayout(shape)),
              expectLayout(layout::toLinearLayout(enc, shape)));
}

TEST_F(TritonGPULinearLayout, SliceSlicesTheParentFittedToTheExpandedShape) {
  auto slice = parse("#ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [2, 1], "
                     "threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [0, 1]}>}>");
  ASSERT_TRUE(slice);
  layout::BlockedEncoding parent{{2, 1}, {4, 8}, {4, 1}, {0, 1}, {}};
  LinearLayout parentLL = expectLayout(layout::toLinearLayout(parent, {64, 1}));
  LinearLayout expected = expectLayout(layout::sliceLayout(parentLL, 1));
  LinearLayout ll = expectLayout(slice.toLinearLayout({64}));
  EXPECT_EQ(ll, expected);
  // Lanes that differ only along the sliced dimension hold the same rows.
  EXPECT_EQ(bases(ll, "lane"), (B{{2}, {4}, {0}, {0}, {0}}));
}

TEST_F(TritonGPULinearLayout, LinearEqualsTheBlockedItDescribesAndIsFitted) {
  auto linear = parse("#ttg.linear<{register = [[1]], lane = [[2], [4], [8], [16], [32]], "
                      "warp = [[64], [128]], block = []}>");
  auto blocked = parse("#ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], "
                       "warpsPerCTA = [4], order = [0]}>");
  ASSERT_TRUE(linear && blocked);
  for (int64_t size : {256, 1024, 64})
    EXPECT_EQ(expectLayout(linear.toLinearLayout({size})),
              expectLayout(blocked.toLinearLayout({size})))
        << "size " << size;
  EXPECT_EQ(bases(expectLayout(linear.toLinearLayout({512})), "register"), (B{{1}, {256}}));
}

TEST_F(TritonGPULinearLayout, SwizzledSharedIsTheEnginesLayout) {
  auto shared = parse("#ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order = [1, 0]}>");
  ASSERT_TRUE(shared);
  layout::SwizzledSharedEncoding enc{4, 2, 4, {1, 0}, {}};
  LinearLayout ll = expectLayout(shared.toLinearLayout({32, 64}));
  EXPECT_EQ(ll, expectLayout(layout::toLinearLayout(enc, {32, 64})));
  EXPECT_EQ(ll.getInDimNames()[0], "offset");
}

TEST_F(TritonGPULinearLayout, TensorTypesUseTheirEncoding) {
  auto blocked = parse("#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], "
                       "warpsPerCTA = [4], order = [0]}>");
  auto f32 = Float32Type::get(&context);
  EXPECT_EQ(expectLayout(ttg::toLinearLayout(RankedTensorType::get({1024}, f32, blocked))),
            expectLayout(blocked.toLinearLayout({1024})));
  EXPECT_EQ(expectError(ttg::toLinearLayout(RankedTensorType::get({1024}, f32))),
            "tensor type has no ttg layout encoding");
}

TEST_F(TritonGPULinearLayout, ShapesTheEncodingCannotHoldAreErrors) {
  auto blocked = parse("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                       "warpsPerCTA = [2, 2], order = [1, 0]}>");
  auto linear = parse("#ttg.linear<{register = [[1]], lane = [[2], [4], [8], [16], [32]], "
                      "warp = [[64], [128]], block = []}>");
  ASSERT_TRUE(blocked && linear);
  EXPECT_EQ(expectError(blocked.toLinearLayout({64})),
            "a rank-2 encoding cannot lay out a rank-1 tensor");
  EXPECT_EQ(expectError(linear.toLinearLayout({16, 16})),
            "a rank-1 encoding cannot lay out a rank-2 tensor");
  EXPECT_FALSE(expectError(blocked.toLinearLayout({3, 64})).empty());
}

} // namespace

namespace {

/// Replays NVIDIA's stmatrix.m8n8.x4 and ldmatrix.m8n8.x4 (.b16, .trans or
/// not) as the PTX ISA defines them for each access of `plan`: lane 8m + r
/// gives row r of matrix m's address, and the row's elements c = 0..7
/// belong to lane 4r + c/2 (.trans: 4c + r/2), its 32-bit word m (the
/// registers first + 2m and first + 2m + 1). Every element must be where
/// the buffer's layout keeps its coordinates.
void expectMatricesPlaceEveryElement(const LinearLayout &regs, const LinearLayout &buffer,
                                      const layout::MatrixAccessPlan &plan) {
  std::optional<LinearLayout> whereIs = buffer.invert();
  ASSERT_TRUE(whereIs);
  int32_t warps = regs.getInDimSize("warp");
  size_t checked = 0;
  for (int32_t w = 0; w < warps; ++w)
    for (const layout::MatrixAccessPlan::Access &store : plan.accesses)
      for (int32_t l = 0; l < 32; ++l) {
        int64_t address = store.offset;
        for (unsigned b = 0; b < 5; ++b)
          if (l & (1 << b))
            address ^= plan.laneImages[b];
        for (unsigned b = 0; b < plan.warpImages.size(); ++b)
          if (w & (1 << b))
            address ^= plan.warpImages[b];
        int32_t m = l / 8, r = l % 8;
        for (int32_t c = 0; c < 8; ++c) {
          // Element c of row r: lane 4r + c/2's half c%2, or transposed,
          // lane 4c + r/2's half r%2.
          int32_t half = plan.transposed ? r & 1 : c & 1;
          int32_t lane = plan.transposed ? 4 * c + r / 2 : 4 * r + c / 2;
          auto coords = regs.apply({{"register", store.firstRegister + 2 * m + half},
                                    {"lane", lane},
                                    {"warp", w}});
          llvm::SmallVector<std::pair<llvm::StringRef, int32_t>> at;
          for (const auto &[name, value] : coords)
            at.push_back({name, value});
          auto place = whereIs->apply(at);
          int64_t offset = place[whereIs->getOutDimIndex("offset")].second;
          EXPECT_EQ(address + c, offset) << "warp " << w << " lane " << l << " col " << c;
          ++checked;
        }
      }
  EXPECT_EQ(checked, size_t(regs.getTotalInDimSize() / regs.getInDimSize("block")));
}

/// Whether moving `regs`'s registers to a `buffer` has a matrix plan in the
/// `transposed` form or not, as `planned` says; a plan is replayed.
void expectMatrixPlan(const LinearLayout &regs, const LinearLayout &buffer, bool transposed,
                      bool planned) {
  std::optional<LinearLayout> toShared = regs.invertAndCompose(buffer);
  ASSERT_TRUE(toShared);
  std::optional<layout::MatrixAccessPlan> plan = layout::planMatrixAccess(*toShared, transposed);
  ASSERT_EQ(bool(plan), planned) << toShared->toString();
  if (plan)
    expectMatricesPlaceEveryElement(regs, buffer, *plan);
}

} // namespace

TEST_F(TritonGPULinearLayout, WgmmaAccumulatorStoresAsMatricesIntoTMABuffers) {
  // A 128x128 f16 tile of 4 warps' wgmma accumulator (its TMA-store
  // epilogue) into the 128-byte-swizzled buffer TMA reads, 64x64 into a
  // 64-byte swizzle, 64x256 into two 128-byte panels.
  for (auto [instr, shape, swizzle] :
       {std::tuple<int, int, int>{128, 128, 128}, {64, 64, 64}, {256, 64, 128}}) {
    auto mma = parse("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
                     "instrShape = [16, " + std::to_string(instr) + ", 16]}>");
    auto shared = parse("#ttg.nvmma_shared<{swizzlingByteWidth = " + std::to_string(swizzle) +
                        ", transposed = false, elementBitWidth = 16}>");
    ASSERT_TRUE(mma && shared);
    expectMatrixPlan(expectLayout(mma.toLinearLayout({shape, instr})),
                     expectLayout(shared.toLinearLayout({shape, instr})), false, true);
  }
}

TEST_F(TritonGPULinearLayout, LayoutsWithoutMatrixRowsHaveNoMatrixStore) {
  // A blocked layout's lanes do not pair elements along rows of 8.
  auto blocked = parse("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], "
                       "warpsPerCTA = [4, 1], order = [1, 0]}>");
  auto shared = parse("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                      "elementBitWidth = 16}>");
  ASSERT_TRUE(blocked && shared);
  LinearLayout regs = expectLayout(blocked.toLinearLayout({64, 64}));
  LinearLayout buffer = expectLayout(shared.toLinearLayout({64, 64}));
  for (bool transposed : {false, true})
    expectMatrixPlan(regs, buffer, transposed, false);
}

TEST_F(TritonGPULinearLayout, MmaOperandsLoadAsMatrices) {
  // mma.sync's f16 operands (kWidth 2) read from the swizzled buffers the
  // pipeliner gives them: K-contiguous A (64x32) and B (32x64) are
  // ldmatrix x4 loads, M- or N-contiguous ones ldmatrix.trans.
  auto a = parse("#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, "
                 "versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>");
  auto b = parse("#ttg.dot_op<{opIdx = 1, parent = #ttg.nvidia_mma<{versionMajor = 2, "
                 "versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>");
  auto rowMajor =
      parse("#ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>");
  auto colMajor =
      parse("#ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1]}>");
  ASSERT_TRUE(a && b && rowMajor && colMajor);
  auto check = [&](ttg::LayoutEncodingInterface regsEnc, ttg::LayoutEncodingInterface sharedEnc,
                   llvm::SmallVector<int64_t> shape, bool transposed) {
    LinearLayout regs = expectLayout(regsEnc.toLinearLayout(shape));
    LinearLayout buffer = expectLayout(sharedEnc.toLinearLayout(shape));
    // Exactly one of the two forms reads each.
    expectMatrixPlan(regs, buffer, !transposed, false);
    expectMatrixPlan(regs, buffer, transposed, true);
  };
  check(a, rowMajor, {64, 32}, false);
  check(b, colMajor, {32, 64}, false);
  check(b, rowMajor, {32, 64}, true);
  check(a, colMajor, {64, 32}, true);
}

namespace {

/// Elements of `ll` per 16-byte granule index within the 128-byte line, for
/// 8 addresses of 8 16-bit elements each: distinct granules, one wavefront.
bool distinctGranules(llvm::ArrayRef<int64_t> rowOffsets) {
  std::set<int64_t> granules;
  for (int64_t offset : rowOffsets)
    granules.insert((offset / 8) % 8);
  return granules.size() == rowOffsets.size();
}

/// A conversion whose `matrices` side moves 8x8 matrices through the
/// scratch matrixConversionScratch plans: the matrices place every element
/// where the scratch keeps it, each matrix's rows and each 8 lanes' 16-byte
/// vectors of the other side reach distinct banks.
void expectMatrixScratch(const LinearLayout &matrices, const LinearLayout &vectors,
                         bool transposed) {
  llvm::Expected<layout::ConversionScratch> scratch =
      layout::matrixConversionScratch(matrices, vectors, transposed);
  ASSERT_TRUE(bool(scratch)) << llvm::toString(scratch.takeError());
  EXPECT_EQ(scratch->numRounds(), 1);
  EXPECT_EQ(scratch->vectorBits, 3u);
  std::optional<LinearLayout> toShared = matrices.invertAndCompose(scratch->layout);
  ASSERT_TRUE(toShared);
  std::optional<layout::MatrixAccessPlan> plan = layout::planMatrixAccess(*toShared, transposed);
  ASSERT_TRUE(plan) << toShared->toString();
  expectMatricesPlaceEveryElement(matrices, scratch->layout, *plan);
  for (int32_t w = 0; w < matrices.getInDimSize("warp"); ++w)
    for (const layout::MatrixAccessPlan::Access &access : plan->accesses)
      for (int32_t m = 0; m < 4; ++m) {
        llvm::SmallVector<int64_t> rows;
        for (int32_t r = 0; r < 8; ++r) {
          int64_t address = access.offset;
          for (unsigned b = 0; b < 5; ++b)
            if ((8 * m + r) & (1 << b))
              address ^= plan->laneImages[b];
          for (unsigned b = 0; b < plan->warpImages.size(); ++b)
            if (w & (1 << b))
              address ^= plan->warpImages[b];
          EXPECT_EQ(address % 8, 0);
          rows.push_back(address);
        }
        EXPECT_TRUE(distinctGranules(rows)) << "matrix " << m << " of warp " << w;
      }
  // The vector side: registers 0-2 are the 8 elements of one 16-byte run.
  std::optional<LinearLayout> vectorsToShared = vectors.invertAndCompose(scratch->layout);
  ASSERT_TRUE(vectorsToShared);
  auto offsetOf = [&](int32_t reg, int32_t lane, int32_t warp) {
    auto out = vectorsToShared->apply({{"register", reg}, {"lane", lane}, {"warp", warp}});
    return int64_t(out[vectorsToShared->getOutDimIndex("offset")].second);
  };
  for (int32_t r = 0; r < 8; ++r)
    EXPECT_EQ(offsetOf(r, 0, 0), r);
  for (int32_t w = 0; w < vectors.getInDimSize("warp"); ++w)
    for (int32_t reg = 0; reg < vectors.getInDimSize("register"); reg += 8)
      for (int32_t first = 0; first < 32; first += 8) {
        llvm::SmallVector<int64_t> runs;
        for (int32_t l = first; l < first + 8; ++l) {
          EXPECT_EQ(offsetOf(reg, l, w) % 8, 0);
          runs.push_back(offsetOf(reg, l, w));
        }
        EXPECT_TRUE(distinctGranules(runs)) << "lanes " << first << "+ of warp " << w;
      }
}

} // namespace

TEST_F(TritonGPULinearLayout, AccumulatorToStoreLayoutConvertsThroughMatrices) {
  // The epilogue of a 128x128 f16 tile over 8 warps: the wgmma accumulator
  // stmatrix-stored into the conversion scratch, read back as the 16-byte
  // rows of the coalesced layout of tt.store; 64x64 over 4 warps likewise.
  for (auto [warps, n, tpw] : {std::tuple<int, int, int>{8, 128, 16}, {4, 64, 8}}) {
    auto mma = parse("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [" +
                     std::to_string(warps) + ", 1], instrShape = [16, " + std::to_string(n) +
                     ", 16]}>");
    auto blocked = parse("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [" +
                         std::to_string(32 / tpw) + ", " + std::to_string(tpw) +
                         "], warpsPerCTA = [" + std::to_string(warps) +
                         ", 1], order = [1, 0]}>");
    ASSERT_TRUE(mma && blocked);
    expectMatrixScratch(expectLayout(mma.toLinearLayout({n, n})),
                        expectLayout(blocked.toLinearLayout({n, n})), false);
  }
}

TEST_F(TritonGPULinearLayout, OperandFromRegistersLoadsThroughMatrices) {
  // A K-contiguous blocked tile converted to mma.sync's A operand: the
  // blocked side stores 16-byte rows, the operand side ldmatrix-loads them;
  // M-contiguous, the operand side loads with .trans.
  auto a = parse("#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, "
                 "versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 2}>");
  auto kContiguous = parse("#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], "
                           "warpsPerCTA = [4, 1], order = [1, 0]}>");
  auto mContiguous = parse("#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], "
                           "warpsPerCTA = [1, 4], order = [0, 1]}>");
  ASSERT_TRUE(a && kContiguous && mContiguous);
  LinearLayout operand = expectLayout(a.toLinearLayout({64, 32}));
  expectMatrixScratch(operand, expectLayout(kContiguous.toLinearLayout({64, 32})), false);
  expectMatrixScratch(operand, expectLayout(mContiguous.toLinearLayout({64, 32})), true);
}

TEST_F(TritonGPULinearLayout, MatrixScratchNeedsRowsInTheOtherSidesRegisters) {
  // Blocked [1, 2] holds only a pair of each row: no 16-byte vectors.
  auto mma = parse("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
                   "instrShape = [16, 64, 16]}>");
  auto pairs = parse("#ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [1, 32], "
                     "warpsPerCTA = [4, 1], order = [1, 0]}>");
  ASSERT_TRUE(mma && pairs);
  llvm::Expected<layout::ConversionScratch> scratch = layout::matrixConversionScratch(
      expectLayout(mma.toLinearLayout({64, 64})), expectLayout(pairs.toLinearLayout({64, 64})),
      false);
  ASSERT_FALSE(bool(scratch));
  EXPECT_NE(llvm::toString(scratch.takeError()).find("does not hold the matrices' rows"),
            std::string::npos);
}
