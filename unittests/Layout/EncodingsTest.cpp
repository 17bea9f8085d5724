//===- EncodingsTest.cpp - TritonGPU encodings as linear layouts ----------===//
//
// Fixtures: Triton's own expected bases for blocked, slice and shared
// encodings (unittest/Dialect/TritonGPU/LinearLayoutConversionsTest.cpp, as
// of the CGA-layout form of 3.6, where a slice keeps no zero registers),
// and layouts derived by hand. Each family is also checked against a direct
// model of the encoding (Triton's pre-linear-layout index arithmetic),
// enumerated over every register, lane and warp or every offset.
//
//===----------------------------------------------------------------------===//
#include "LayoutTestUtil.h"

#include "kiln/Layout/Encodings.h"

#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <set>

using namespace kiln::layout;
using namespace kiln::layout::test;
using LL = LinearLayout;
using U = llvm::SmallVector<unsigned>;

namespace {

const std::vector<std::string> kDims2 = {"dim0", "dim1"};

// Triton's test helper order: blocked(spt, tpw, wpc, CTAsPerCGA,
// CTASplitNum, order, CTAOrder).
BlockedEncoding blocked(U spt, U tpw, U wpc, U cpg, U split, U order, U ctaOrder) {
  llvm::Expected<CGABases> cga = cgaBasesFromSplit(cpg, split, ctaOrder);
  if (!cga) {
    ADD_FAILURE() << llvm::toString(cga.takeError());
    return BlockedEncoding{};
  }
  return BlockedEncoding{spt, tpw, wpc, order, *cga};
}
BlockedEncoding blocked(U spt, U tpw, U wpc, U order) {
  return BlockedEncoding{spt, tpw, wpc, order, {}};
}

template <typename Enc> LL toLL(const Enc &enc, llvm::ArrayRef<int64_t> shape) {
  llvm::Expected<LL> ll = toLinearLayout(enc, shape);
  if (!ll) {
    ADD_FAILURE() << llvm::toString(ll.takeError());
    return LL();
  }
  return *ll;
}

LL slice(const BlockedEncoding &parent, unsigned dim, llvm::ArrayRef<int64_t> shape) {
  llvm::Expected<LL> ll = sliceLayout(toLL(parent, sliceParentShape(shape, dim)), dim);
  if (!ll) {
    ADD_FAILURE() << llvm::toString(ll.takeError());
    return LL();
  }
  return *ll;
}

LL dist(std::vector<LL::Basis> reg, std::vector<LL::Basis> lane, std::vector<LL::Basis> warp,
        std::vector<LL::Basis> block, llvm::ArrayRef<std::string> outs) {
  return LL({{"register", reg}, {"lane", lane}, {"warp", warp}, {"block", block}}, outs);
}

// --- Triton's fixtures ----------------------------------------------------------

TEST(Encodings, TritonBlockedFixtures) {
  EXPECT_EQ(toLL(blocked({1}, {4}, {4}, {1}, {1}, {0}, {0}), {16}),
            dist({}, {{1}, {2}}, {{4}, {8}}, {}, {"dim0"}));
  EXPECT_EQ(toLL(blocked({1}, {4}, {4}, {4}, {2}, {0}, {0}), {32}),
            dist({}, {{1}, {2}}, {{4}, {8}}, {{16}, {0}}, {"dim0"}));
  EXPECT_EQ(toLL(blocked({8, 1}, {8, 4}, {1, 4}, {1, 2}, {1, 2}, {0, 1}, {1, 0}), {64, 128}),
            dist({{1, 0}, {2, 0}, {4, 0}, {0, 16}, {0, 32}},
                 {{8, 0}, {16, 0}, {32, 0}, {0, 1}, {0, 2}}, {{0, 4}, {0, 8}}, {{0, 64}}, kDims2));
  EXPECT_EQ(toLL(blocked({1}, {4}, {4}, {1}, {1}, {0}, {0}), {128}),
            dist({{16}, {32}, {64}}, {{1}, {2}}, {{4}, {8}}, {}, {"dim0"}));
  EXPECT_EQ(toLL(blocked({1, 1}, {4, 1}, {4, 1}, {1, 1}, {1, 1}, {0, 1}, {1, 0}), {128, 1}),
            dist({{16, 0}, {32, 0}, {64, 0}}, {{1, 0}, {2, 0}}, {{4, 0}, {8, 0}}, {}, kDims2));
  EXPECT_EQ(toLL(blocked({4}, {4}, {4}, {1}, {1}, {0}, {0}), {8}),
            dist({{1}, {2}}, {{4}, {0}}, {{0}, {0}}, {}, {"dim0"}));
  EXPECT_EQ(toLL(blocked({1, 1}, {32, 1}, {1, 8}, {1, 1}, {1, 1}, {0, 1}, {1, 0}), {1, 64}),
            dist({{0, 8}, {0, 16}, {0, 32}}, {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}},
                 {{0, 1}, {0, 2}, {0, 4}}, {}, kDims2));
  EXPECT_EQ(toLL(blocked({2}, {4}, {1}, {1}, {1}, {0}, {0}), {32}),
            dist({{1}, {8}, {16}}, {{2}, {4}}, {}, {}, {"dim0"}));
  EXPECT_EQ(toLL(blocked({1, 4}, {8, 4}, {4, 1}, {2, 2}, {2, 1}, {1, 0}, {1, 0}), {128, 16}),
            dist({{0, 1}, {0, 2}, {32, 0}}, {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}},
                 {{8, 0}, {16, 0}}, {{0, 0}, {64, 0}}, kDims2));
  EXPECT_EQ(toLL(blocked({1}, {1}, {4}, {2}, {2}, {0}, {0}), {4}),
            dist({}, {}, {{1}, {0}}, {{2}}, {"dim0"}));
  EXPECT_EQ(toLL(blocked({1}, {1}, {1}, {4}, {4}, {0}, {0}), {2}),
            dist({}, {}, {}, {{1}, {0}}, {"dim0"}));
  EXPECT_EQ(toLL(blocked({8, 1}, {8, 4}, {1, 4}, {1, 2}, {1, 2}, {0, 1}, {0, 1}), {64, 1}),
            dist({{1, 0}, {2, 0}, {4, 0}}, {{8, 0}, {16, 0}, {32, 0}, {0, 0}, {0, 0}},
                 {{0, 0}, {0, 0}}, {{0, 0}}, kDims2));
  EXPECT_EQ(toLL(blocked({2, 2}, {4, 8}, {2, 2}, {2, 2}, {2, 2}, {1, 0}, {1, 0}), {1024, 128}),
            dist({{0, 1}, {1, 0}, {0, 32}, {16, 0}, {32, 0}, {64, 0}, {128, 0}, {256, 0}},
                 {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {4, 0}}, {{0, 16}, {8, 0}}, {{0, 64}, {512, 0}},
                 kDims2));
  std::vector<std::string> dims4 = {"dim0", "dim1", "dim2", "dim3"};
  EXPECT_EQ(toLL(blocked({1, 1, 1, 4}, {2, 1, 1, 16}, {1, 2, 4, 1}, {1, 1, 1, 1}, {1, 1, 1, 1},
                         {3, 0, 1, 2}, {3, 2, 1, 0}),
                 {2, 1, 1, 1}),
            dist({{0, 0, 0, 0}, {0, 0, 0, 0}},
                 {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}},
                 {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}, {}, dims4));
}

TEST(Encodings, TritonSliceFixtures) {
  BlockedEncoding parent = blocked({2, 4}, {4, 2}, {2, 2}, {2, 2}, {2, 2}, {1, 0}, {1, 0});
  EXPECT_EQ(slice(parent, 0, {128}),
            dist({{1}, {2}, {16}, {32}}, {{4}, {0}, {0}}, {{8}, {0}}, {{64}, {0}}, {"dim0"}));
  EXPECT_EQ(slice(parent, 1, {128}),
            dist({{1}, {16}, {32}}, {{0}, {2}, {4}}, {{0}, {8}}, {{0}, {64}}, {"dim0"}));
  EXPECT_EQ(slice(blocked({1, 4}, {8, 4}, {2, 2}, {1, 1}, {1, 1}, {0, 1}, {1, 0}), 0, {1}),
            dist({}, {{0}, {0}, {0}, {0}, {0}}, {{0}, {0}}, {}, {"dim0"}));
  EXPECT_EQ(slice(blocked({1, 1, 1, 4}, {2, 1, 1, 16}, {1, 2, 4, 1}, {1, 1, 1, 1}, {1, 1, 1, 1},
                          {3, 0, 1, 2}, {3, 2, 1, 0}),
                  3, {2, 1, 1}),
            dist({}, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0}},
                 {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}, {}, {"dim0", "dim1", "dim2"}));
}

SwizzledSharedEncoding shared(unsigned vec, unsigned perPhase, unsigned maxPhase, U order) {
  return SwizzledSharedEncoding{vec, perPhase, maxPhase, order, {}};
}

LL sharedLL(std::vector<LL::Basis> offset, llvm::ArrayRef<std::string> outs) {
  return LL({{"offset", offset}, {"block", {}}}, outs);
}

TEST(Encodings, TritonSharedFixtures) {
  EXPECT_EQ(toLL(shared(1, 1, 1, {0}), {1024}),
            LL::identity1D(1024, "offset", "dim0") * LL::identity1D(1, "block", "dim0"));
  EXPECT_EQ(toLL(shared(1, 1, 1, {1, 0}), {128, 128}),
            (LL::identity1D(128, "offset", "dim1") * LL::identity1D(128, "offset", "dim0") *
             LL::identity1D(1, "block", "dim0"))
                .transposeOuts({"dim0", "dim1"}));
  EXPECT_EQ(
      toLL(shared(1, 1, 4, {1, 0}), {32, 32}),
      sharedLL({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 1}, {2, 2}, {4, 0}, {8, 0}, {16, 0}},
               kDims2));
  EXPECT_EQ(
      toLL(shared(1, 2, 4, {1, 0}), {32, 32}),
      sharedLL({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 1}, {4, 2}, {8, 0}, {16, 0}},
               kDims2));
  EXPECT_EQ(toLL(shared(2, 1, 4, {1, 0}), {4, 8}),
            sharedLL({{0, 1}, {0, 2}, {0, 4}, {1, 2}, {2, 4}}, kDims2));
  EXPECT_EQ(
      toLL(shared(2, 2, 4, {1, 0}), {32, 32}),
      sharedLL({{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 2}, {4, 4}, {8, 0}, {16, 0}},
               kDims2));
  EXPECT_EQ(toLL(shared(2, 2, 4, {3, 2, 1, 0}), {2, 4, 32, 32}),
            sharedLL({{0, 0, 0, 1},
                      {0, 0, 0, 2},
                      {0, 0, 0, 4},
                      {0, 0, 0, 8},
                      {0, 0, 0, 16},
                      {0, 0, 1, 0},
                      {0, 0, 2, 2},
                      {0, 0, 4, 4},
                      {0, 0, 8, 0},
                      {0, 0, 16, 0},
                      {0, 1, 0, 0},
                      {0, 2, 0, 0},
                      {1, 0, 0, 0}},
                     {"dim0", "dim1", "dim2", "dim3"}));
  EXPECT_EQ(toLL(shared(1, 1, 4, {0, 1}), {4, 8}),
            sharedLL({{1, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 4}}, kDims2));
}

// --- Derived by hand --------------------------------------------------------------

TEST(Encodings, HandDerivedLayouts) {
  // sizePerThread [1,4], threadsPerWarp [8,4], warpsPerCTA [4,1], order
  // [1,0] tiles 32x16; on 64x64 the rest repeats in registers, dim1 first.
  BlockedEncoding b = blocked({1, 4}, {8, 4}, {4, 1}, {1, 0});
  EXPECT_EQ(toLL(b, {64, 64}),
            dist({{0, 1}, {0, 2}, {0, 16}, {0, 32}, {32, 0}},
                 {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}}, {{8, 0}, {16, 0}}, {}, kDims2));
  // Smaller than the tile: the largest bases along each dimension are zeroed.
  EXPECT_EQ(toLL(b, {16, 8}), dist({{0, 1}, {0, 2}}, {{0, 4}, {0, 0}, {1, 0}, {2, 0}, {4, 0}},
                                   {{8, 0}, {0, 0}}, {}, kDims2));
  // Its slices: dropping dim1 leaves each row to a lane group, dropping dim0
  // leaves the warps and row lanes holding copies.
  EXPECT_EQ(slice(b, 1, {64}), dist({{32}}, {{0}, {0}, {1}, {2}, {4}}, {{8}, {16}}, {}, {"dim0"}));
  EXPECT_EQ(slice(b, 0, {64}),
            dist({{1}, {2}, {16}, {32}}, {{4}, {8}, {0}, {0}, {0}}, {{0}, {0}}, {}, {"dim0"}));
  // 1-D, 4 warps of 32 lanes with 4 elements each (512) over 1024 elements.
  EXPECT_EQ(toLL(blocked({4}, {32}, {4}, {0}), {1024}),
            dist({{1}, {2}, {512}}, {{4}, {8}, {16}, {32}, {64}}, {{128}, {256}}, {}, {"dim0"}));
  // The f16 swizzle of 128-byte rows: vec 8, perPhase 1, maxPhase 8.
  EXPECT_EQ(toLL(shared(8, 1, 8, {1, 0}), {64, 64}), sharedLL({{0, 1},
                                                               {0, 2},
                                                               {0, 4},
                                                               {0, 8},
                                                               {0, 16},
                                                               {0, 32},
                                                               {1, 8},
                                                               {2, 16},
                                                               {4, 32},
                                                               {8, 0},
                                                               {16, 0},
                                                               {32, 0}},
                                                              kDims2));
}

TEST(Encodings, WarpSize64) {
  // An AMD CDNA wave of 64 lanes: 4x16 lanes per 4-wide row chunk.
  EXPECT_EQ(toLL(blocked({1, 4}, {4, 16}, {4, 1}, {1, 0}), {64, 64}),
            dist({{0, 1}, {0, 2}, {16, 0}, {32, 0}},
                 {{0, 4}, {0, 8}, {0, 16}, {0, 32}, {1, 0}, {2, 0}}, {{4, 0}, {8, 0}}, {}, kDims2));
}

TEST(Encodings, CombineBuildsMmaLayouts) {
  // Triton builds MMA accumulators from a hand-written tile and
  // combineCtaCgaWithShape; its expectations for MMAv2 (m16n8, 1 warp) on
  // 32x32 and MMAv3 (16x16x8, 4x1 warps) on 64x16.
  LL tile({{"register", {{1, 0}, {0, 8}}}, {"lane", {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}}}},
          {"dim1", "dim0"});
  llvm::Expected<LL> v2 =
      combineCtaCgaWithShape(tile * identityStandardND("warp", {1, 1}, {1, 0}), {}, {32, 32});
  ASSERT_TRUE(bool(v2)) << llvm::toString(v2.takeError());
  EXPECT_EQ(*v2, dist({{0, 1}, {8, 0}, {0, 8}, {0, 16}, {16, 0}},
                      {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, {}, {}, kDims2));
  LL v3Tile = tile * LL::identity1D(2, "register", "dim1") *
              identityStandardND("warp", {4, 1}, {0, 1}).transposeOuts({"dim1", "dim0"});
  llvm::Expected<LL> v3 = combineCtaCgaWithShape(v3Tile, {}, {64, 16});
  ASSERT_TRUE(bool(v3)) << llvm::toString(v3.takeError());
  EXPECT_EQ(*v3, dist({{0, 1}, {8, 0}, {0, 8}}, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}},
                      {{16, 0}, {32, 0}}, {}, kDims2));
}

// --- Models, enumerated ------------------------------------------------------------

// Tensor coordinates of (reg, lane, warp) in a blocked layout, as Triton's
// index arithmetic computed them before linear layouts: registers are the
// sizePerThread tile, then its repetitions over the shape, fastest
// dimension first; coordinates wrap modulo the shape (broadcast).
llvm::SmallVector<int32_t> blockedModel(const BlockedEncoding &e, llvm::ArrayRef<int64_t> shape,
                                        int64_t reg, int64_t lane, int64_t warp) {
  size_t rank = shape.size();
  llvm::SmallVector<int64_t> regId(rank), laneId(rank), warpId(rank), rep(rank);
  int64_t perThread = 1;
  for (unsigned d : e.order)
    perThread *= e.sizePerThread[d];
  int64_t inTile = reg % perThread, repIndex = reg / perThread;
  for (unsigned d : e.order) {
    int64_t tile = e.sizePerThread[d] * e.threadsPerWarp[d] * e.warpsPerCTA[d];
    int64_t reps = std::max<int64_t>(1, shape[d] / tile);
    regId[d] = inTile % e.sizePerThread[d], inTile /= e.sizePerThread[d];
    laneId[d] = lane % e.threadsPerWarp[d], lane /= e.threadsPerWarp[d];
    warpId[d] = warp % e.warpsPerCTA[d], warp /= e.warpsPerCTA[d];
    rep[d] = repIndex % reps, repIndex /= reps;
  }
  llvm::SmallVector<int32_t> coords;
  for (size_t d = 0; d < rank; ++d) {
    int64_t tile = e.sizePerThread[d] * e.threadsPerWarp[d] * e.warpsPerCTA[d];
    int64_t c = rep[d] * tile + (warpId[d] * e.threadsPerWarp[d] + laneId[d]) * e.sizePerThread[d] +
                regId[d];
    coords.push_back(int32_t(c % shape[d]));
  }
  return coords;
}

// Spreads `bits` powers of two over `rank` dimensions at random.
U randomSplit(std::mt19937 &rng, unsigned bits, unsigned rank) {
  U values(rank, 1);
  for (unsigned i = 0; i < bits; ++i)
    values[rng() % rank] *= 2;
  return values;
}

BlockedEncoding randomBlocked(std::mt19937 &rng, unsigned rank, unsigned warpSize) {
  U order(rank);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  return blocked(randomSplit(rng, rng() % 3, rank), randomSplit(rng, llvm::Log2_32(warpSize), rank),
                 randomSplit(rng, rng() % 3, rank), order);
}

TEST(Encodings, BlockedMatchesModel) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    unsigned rank = 1 + rng() % 3, warpSize = trial % 2 ? 64 : 32;
    BlockedEncoding e = randomBlocked(rng, rank, warpSize);
    llvm::SmallVector<int64_t> shape;
    for (unsigned d = 0; d < rank; ++d)
      shape.push_back(int64_t(1) << (rng() % (10 / rank + 1)));
    LL ll = toLL(e, shape);
    ASSERT_EQ(ll.getInDimSize("lane"), int32_t(warpSize));
    ASSERT_EQ(ll.getOutDimSize("dim0"), shape[0]);
    forEachInput(ll, [&](llvm::ArrayRef<int32_t> x) {
      ASSERT_EQ(ll.apply(x), blockedModel(e, shape, x[0], x[1], x[2]))
          << "register " << x[0] << " lane " << x[1] << " warp " << x[2] << ll.toString();
    });
  }
}

TEST(Encodings, BroadcastIsReplication) {
  // A tensor smaller than the tile: every element is held by 2^k locations,
  // k the number of free input bits; the free bits are the zero bases.
  LL small = toLL(blocked({1, 4}, {8, 4}, {4, 1}, {1, 0}), {16, 8});
  EXPECT_EQ(small.getFreeVariableMasks(), (llvm::SmallVector<uint64_t>{0, 0b10, 0b10, 0}));
  std::mt19937 rng(14);
  for (int trial = 0; trial < 200; ++trial) {
    unsigned rank = 1 + rng() % 2;
    llvm::SmallVector<int64_t> shape;
    for (unsigned d = 0; d < rank; ++d)
      shape.push_back(int64_t(1) << (rng() % 5));
    LL ll = toLL(randomBlocked(rng, rank, 32), shape);
    unsigned freeBits = 0;
    for (uint64_t mask : ll.getFreeVariableMasks())
      freeBits += llvm::popcount(mask);
    std::map<llvm::SmallVector<int32_t>, int> holders;
    forEachInput(ll, [&](llvm::ArrayRef<int32_t> x) { ++holders[ll.apply(x)]; });
    int64_t elements = 1;
    for (int64_t s : shape)
      elements *= s;
    ASSERT_EQ(int64_t(holders.size()), elements) << ll.toString();
    for (auto &[coords, count] : holders)
      ASSERT_EQ(count, 1 << freeBits) << ll.toString();
  }
}

TEST(Encodings, SliceHoldsTheParentsElements) {
  // Each thread of a slice holds exactly the parent's elements with the
  // sliced coordinate dropped.
  std::mt19937 rng(12);
  for (int trial = 0; trial < 200; ++trial) {
    unsigned rank = 2 + rng() % 2;
    BlockedEncoding parent = randomBlocked(rng, rank, 32);
    unsigned dim = rng() % rank;
    llvm::SmallVector<int64_t> shape;
    for (unsigned d = 0; d + 1 < rank; ++d)
      shape.push_back(int64_t(1) << (rng() % 5));
    LL parentLL = toLL(parent, sliceParentShape(shape, dim));
    LL sliced = slice(parent, dim, shape);
    for (int32_t lane = 0; lane < 32; ++lane)
      for (int32_t warp = 0; warp < sliced.getInDimSize("warp"); ++warp) {
        std::set<llvm::SmallVector<int32_t>> fromParent, fromSlice;
        for (int32_t r = 0; r < parentLL.getInDimSize("register"); ++r) {
          llvm::SmallVector<int32_t> c = parentLL.apply({r, lane, warp, 0});
          c.erase(c.begin() + dim);
          fromParent.insert(c);
        }
        for (int32_t r = 0; r < sliced.getInDimSize("register"); ++r)
          fromSlice.insert(sliced.apply({r, lane, warp, 0}));
        ASSERT_EQ(fromSlice, fromParent) << sliced.toString() << parentLL.toString();
      }
  }
}

TEST(Encodings, SwizzledSharedMatchesModel) {
  // Offset o of row r holds column (o % cols) ^ (vec * ((r / perPhase) %
  // maxPhase)) % cols; further dimensions follow in `order`.
  std::mt19937 rng(13);
  for (int trial = 0; trial < 300; ++trial) {
    unsigned rank = 2 + rng() % 2;
    U order(rank);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    SwizzledSharedEncoding e =
        shared(1u << (rng() % 4), 1u << (rng() % 3), 1u << (rng() % 4), order);
    llvm::SmallVector<int64_t> shape;
    for (unsigned d = 0; d < rank; ++d)
      shape.push_back(int64_t(1) << (rng() % (12 / rank + 1)));
    LL ll = toLL(e, shape);
    int64_t cols = shape[order[0]], rows = shape[order[1]];
    forEachInput(ll, [&](llvm::ArrayRef<int32_t> x) {
      int64_t o = x[0];
      llvm::SmallVector<int32_t> expect(rank);
      int64_t col = o % cols, row = (o / cols) % rows, rest = o / cols / rows;
      expect[order[1]] = int32_t(row);
      expect[order[0]] = int32_t(col ^ ((e.vec * ((row / e.perPhase) % e.maxPhase)) % cols));
      for (unsigned i = 2; i < rank; ++i) {
        expect[order[i]] = int32_t(rest % shape[order[i]]);
        rest /= shape[order[i]];
      }
      ASSERT_EQ(ll.apply(x), expect) << "offset " << o << ll.toString();
    });
  }
}

// --- Bad parameters ------------------------------------------------------------------

TEST(Encodings, BadParametersAreErrors) {
  auto message = [](llvm::Expected<LL> ll) {
    return ll ? std::string("ok") : llvm::toString(ll.takeError());
  };
  EXPECT_EQ(message(toLinearLayout(blocked({1, 4}, {8, 4}, {4}, {1, 0}), {64, 64})),
            "warpsPerCTA [4] has 1 entries for a rank-2 tensor");
  EXPECT_EQ(message(toLinearLayout(blocked({1, 3}, {8, 4}, {4, 1}, {1, 0}), {64, 64})),
            "sizePerThread [1, 3] has an entry that is not a power of two");
  EXPECT_EQ(message(toLinearLayout(blocked({1, 4}, {8, 4}, {4, 1}, {1, 1}), {64, 64})),
            "order [1, 1] is not a permutation of the 2 dimensions");
  EXPECT_EQ(message(toLinearLayout(blocked({1, 4}, {8, 4}, {4, 1}, {1, 0}), {64, 48})),
            "tensor dimension of size 48 is not a power of two from 1 to 2^30");
  EXPECT_EQ(message(toLinearLayout(blocked({1 << 20, 1}, {1, 1}, {1 << 20, 1}, {1, 0}), {2, 2})),
            "the blocked layout's tile holds more than 2^30 elements");
  EXPECT_EQ(message(toLinearLayout(blocked({1, 1}, {32, 1}, {1, 1}, {1, 0}),
                                   {int64_t(1) << 30, int64_t(1) << 30})),
            "the layout would need more than 2^30 register values per thread");
  EXPECT_EQ(message(toLinearLayout(shared(3, 1, 1, {1, 0}), {8, 8})),
            "vec, perPhase, maxPhase [3, 1, 1] has an entry that is not a power of two");
  EXPECT_EQ(message(toLinearLayout(BlockedEncoding{{1}, {32}, {1}, {0}, {{1, 0}}}, {64})),
            "a CGA layout basis has 2 coordinates for a rank-1 tensor");
  EXPECT_EQ(message(sliceLayout(toLL(blocked({1, 4}, {8, 4}, {4, 1}, {1, 0}), {64, 64}), 1)),
            "the parent of a slice along dimension 1 must be laid out for size 1 there (see "
            "sliceParentShape)");
  EXPECT_EQ(message(sliceLayout(toLL(blocked({4}, {32}, {1}, {0}), {1}), 0)),
            "cannot slice dimension 0 of a rank-1 layout");
  EXPECT_EQ(message(toLinearLayout(shared(1, 1, 1, {3, 2, 1, 0}),
                                   {1 << 30, 1 << 30, 1 << 30, 1 << 30})),
            "the tensor has more than 2^63 elements");
  auto cgaMessage = [](llvm::Expected<CGABases> cga) {
    return cga ? std::string("ok") : llvm::toString(cga.takeError());
  };
  EXPECT_EQ(cgaMessage(cgaBasesFromSplit({2}, {4}, {0})),
            "CTASplitNum [4] splits a dimension more ways than CTAsPerCGA [2] has CTAs");
  EXPECT_EQ(cgaMessage(cgaBasesFromSplit({1 << 20, 1 << 20}, {1, 1}, {0, 1})),
            "CTAsPerCGA [1048576, 1048576] has more than 2^30 CTAs");
}

} // namespace
