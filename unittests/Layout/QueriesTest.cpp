//===- QueriesTest.cpp - what lowerings ask of a layout -------------------===//
#include "LayoutTestUtil.h"

#include "kiln/Layout/Encodings.h"
#include "kiln/Layout/Queries.h"

#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <set>

using namespace kiln::layout;
using namespace kiln::layout::test;
using LL = LinearLayout;
using U = llvm::SmallVector<unsigned>;

namespace {

LL blockedLL(U spt, U tpw, U wpc, U order, llvm::ArrayRef<int64_t> shape, CGABases cga = {}) {
  llvm::Expected<LL> ll = toLinearLayout(BlockedEncoding{spt, tpw, wpc, order, cga}, shape);
  if (!ll) {
    ADD_FAILURE() << llvm::toString(ll.takeError());
    return LL();
  }
  return *ll;
}

LL sharedLL(unsigned vec, unsigned perPhase, unsigned maxPhase, U order,
            llvm::ArrayRef<int64_t> shape) {
  llvm::Expected<LL> ll =
      toLinearLayout(SwizzledSharedEncoding{vec, perPhase, maxPhase, order, {}}, shape);
  if (!ll) {
    ADD_FAILURE() << llvm::toString(ll.takeError());
    return LL();
  }
  return *ll;
}

// The running example: 32x16 tiles of 4-wide rows, 4 warps, on 64x64.
LL example() { return blockedLL({1, 4}, {8, 4}, {4, 1}, {1, 0}, {64, 64}); }

TEST(Queries, ElementCoordsAndHardware) {
  LL ll = example();
  // lane 5 = lanes 1 and 4: (0,4) ^ (1,0); warp 2: (16,0); register 3: (0,3).
  EXPECT_EQ(elementCoords(ll, 3, 5, 2), (llvm::SmallVector<int32_t>{17, 7}));
  EXPECT_TRUE(isDistributed(ll));
  EXPECT_FALSE(llvm::errorToBool(verifyDistributed(ll, 32, 4, 1)));
  EXPECT_EQ(llvm::toString(verifyDistributed(ll, 64, 4, 1)),
            "the layout spreads over 32 lanes, but the warp size is 64");
  EXPECT_EQ(llvm::toString(verifyDistributed(ll, 32, 8, 1)),
            "the layout spreads over 4 warps, but the number of warps is 8");
  EXPECT_FALSE(isDistributed(sharedLL(1, 1, 1, {1, 0}, {8, 8})));
}

TEST(Queries, RegisterVectorWidth) {
  EXPECT_EQ(registerVectorWidth(example(), 1, 16), 4u);
  EXPECT_EQ(registerVectorWidth(example(), 1, 64), 2u); // 16 bytes at most
  EXPECT_EQ(registerVectorWidth(example(), 0, 16), 1u);
  LL wide = blockedLL({1, 16}, {32, 1}, {4, 1}, {1, 0}, {128, 16});
  EXPECT_EQ(registerVectorWidth(wide, 1, 8), 16u);
  EXPECT_EQ(registerVectorWidth(wide, 1, 16), 8u);
  EXPECT_EQ(registerVectorWidth(wide, 1, 32), 4u);
  // Triton's MMAv2 accumulator on 32x32: pairs of columns.
  LL mma({{"register", {{0, 1}, {8, 0}, {0, 8}, {0, 16}, {16, 0}}},
          {"lane", {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}},
          {"warp", {}},
          {"block", {}}},
         {"dim0", "dim1"});
  EXPECT_EQ(registerVectorWidth(mma, 1, 16), 2u);
}

// Consecutive registers r..r+v-1 (r a multiple of v) hold consecutive,
// v-aligned elements along `dim` in every thread.
bool vectorizes(const LL &ll, unsigned dim, int32_t v) {
  bool ok = v <= ll.getInDimSize("register");
  forEachInput(ll, [&](llvm::ArrayRef<int32_t> x) {
    llvm::SmallVector<int32_t> first = ll.apply({x[0] / v * v, x[1], x[2], x[3]});
    llvm::SmallVector<int32_t> expect = first, got = ll.apply(x);
    expect[dim] += x[0] % v;
    ok = ok && first[dim] % v == 0 && got == expect;
  });
  return ok;
}

TEST(Queries, RegisterVectorWidthByEnumeration) {
  std::mt19937 rng(21);
  for (int trial = 0; trial < 200; ++trial) {
    U order = {0, 1};
    if (rng() % 2)
      order = {1, 0};
    U spt = {1u << (rng() % 4), 1u << (rng() % 4)}, tpw = {1u << (rng() % 6), 0}, wpc = {1, 2};
    tpw[1] = 32 / tpw[0];
    LL ll = blockedLL(spt, tpw, wpc, order, {int64_t(1) << (rng() % 6), int64_t(1) << (rng() % 6)});
    unsigned fast = order[0], v = registerVectorWidth(ll, fast, 8);
    ASSERT_TRUE(vectorizes(ll, fast, v)) << ll.toString();
    if (2 * v <= 16)
      ASSERT_FALSE(vectorizes(ll, fast, 2 * v)) << ll.toString();
  }
}

TEST(Queries, SharedVectorWidth) {
  LL regs = blockedLL({1, 8}, {8, 4}, {4, 1}, {1, 0}, {64, 64});
  // The f16 128-byte swizzle moves groups of 8: whole vectors stay together.
  EXPECT_EQ(sharedVectorWidth(regs, sharedLL(8, 1, 8, {1, 0}, {64, 64}), 16), 8u);
  EXPECT_EQ(sharedVectorWidth(regs, sharedLL(8, 1, 8, {1, 0}, {64, 64}), 32), 4u);
  // Groups of 4 are swizzled apart: only 4 registers stay consecutive.
  EXPECT_EQ(sharedVectorWidth(regs, sharedLL(4, 1, 8, {1, 0}, {64, 64}), 16), 4u);
  EXPECT_EQ(sharedVectorWidth(regs, sharedLL(1, 1, 1, {1, 0}, {64, 64}), 16), 8u);
  // Column-major shared memory: registers run across it.
  EXPECT_EQ(sharedVectorWidth(regs, sharedLL(1, 1, 1, {0, 1}, {64, 64}), 16), 1u);
  // Not a shared layout.
  EXPECT_EQ(sharedVectorWidth(regs, regs, 16), 1u);
}

TEST(Queries, SharedVectorWidthByEnumeration) {
  std::mt19937 rng(22);
  for (int trial = 0; trial < 100; ++trial) {
    U spt = {1, 1u << (rng() % 5)};
    LL regs = blockedLL(spt, {8, 4}, {2, 1}, {1, 0}, {32, 32});
    LL shared = sharedLL(1u << (rng() % 4), 1u << (rng() % 3), 1u << (rng() % 4), {1, 0}, {32, 32});
    // Offsets by brute force: invert the shared layout by enumeration.
    std::map<llvm::SmallVector<int32_t>, int32_t> offsetOf;
    forEachInput(shared, [&](llvm::ArrayRef<int32_t> o) { offsetOf[shared.apply(o)] = o[0]; });
    auto lands = [&](int32_t v) {
      bool ok = true;
      forEachInput(regs, [&](llvm::ArrayRef<int32_t> x) {
        int32_t first = offsetOf[regs.apply({x[0] / v * v, x[1], x[2], x[3]})];
        ok = ok && first % v == 0 && offsetOf[regs.apply(x)] == first + x[0] % v;
      });
      return ok;
    };
    int32_t v = sharedVectorWidth(regs, shared, 8);
    ASSERT_TRUE(lands(v)) << regs.toString() << shared.toString();
    if (2 * v <= int32_t(spt[1]))
      ASSERT_FALSE(lands(2 * v)) << regs.toString() << shared.toString();
  }
}

// The cheapest scope that keeps every element dst needs where src has it,
// by enumeration: the same thread, the same warp, the same CTA, or none.
ConversionKind locality(const LL &src, const LL &dst) {
  if (src == dst)
    return ConversionKind::None;
  using Key = std::vector<int32_t>;
  auto holds = [](const LL &ll, unsigned scope) { // scope: first hardware dim kept in the key
    std::map<Key, std::set<llvm::SmallVector<int32_t>>> held;
    forEachInput(ll, [&](llvm::ArrayRef<int32_t> x) {
      held[Key(x.begin() + scope, x.end())].insert(ll.apply(x));
    });
    return held;
  };
  const ConversionKind kinds[] = {ConversionKind::RegisterPermute, ConversionKind::WarpShuffle,
                                  ConversionKind::SharedMemory};
  for (unsigned scope = 1; scope <= 3; ++scope) {
    auto have = holds(src, scope), need = holds(dst, scope);
    bool local = llvm::all_of(need, [&](auto &entry) {
      auto &h = have[entry.first];
      return std::includes(h.begin(), h.end(), entry.second.begin(), entry.second.end());
    });
    if (local)
      return kinds[scope - 1];
  }
  return ConversionKind::CrossCTA;
}

ConversionKind classify(const LL &src, const LL &dst) {
  llvm::Expected<ConversionKind> kind = classifyConversion(src, dst);
  if (!kind) {
    ADD_FAILURE() << llvm::toString(kind.takeError());
    return ConversionKind::None;
  }
  return *kind;
}

TEST(Queries, ConversionExamples) {
  LL a = example();
  EXPECT_EQ(classify(a, a), ConversionKind::None);
  // The same elements per thread, registers in another order.
  LL permuted({{"register", {{0, 1}, {0, 2}, {32, 0}, {0, 16}, {0, 32}}},
               {"lane", {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}}},
               {"warp", {{8, 0}, {16, 0}}},
               {"block", {}}},
              {"dim0", "dim1"});
  EXPECT_EQ(classify(a, permuted), ConversionKind::RegisterPermute);
  // Rows 2 wide instead of 4: lanes trade elements, warps keep their rows.
  LL narrow = blockedLL({1, 2}, {8, 4}, {4, 1}, {1, 0}, {64, 64});
  EXPECT_EQ(classify(a, narrow), ConversionKind::WarpShuffle);
  // Warps along columns instead of rows.
  LL byColumns = blockedLL({1, 4}, {8, 4}, {1, 4}, {1, 0}, {64, 64});
  EXPECT_EQ(classify(a, byColumns), ConversionKind::SharedMemory);
  // Two CTAs splitting rows versus columns.
  LL rows = blockedLL({1, 4}, {8, 4}, {4, 1}, {1, 0}, {64, 64}, {{1, 0}});
  LL cols = blockedLL({1, 4}, {8, 4}, {4, 1}, {1, 0}, {64, 64}, {{0, 1}});
  EXPECT_EQ(classify(rows, cols), ConversionKind::CrossCTA);
  for (const LL *dst : {&a, &permuted, &narrow, &byColumns})
    EXPECT_EQ(classify(a, *dst), locality(a, *dst));
  EXPECT_EQ(classify(rows, cols), locality(rows, cols));
  // The moving part of a warp shuffle is lanes and registers only.
  llvm::Expected<LL> moving = minimalConversion(a, narrow);
  ASSERT_TRUE(bool(moving));
  EXPECT_EQ(moving->getOutDimNames(), (llvm::SmallVector<llvm::StringRef>{"register", "lane"}));
}

TEST(Queries, ConversionByEnumeration) {
  // Never cheaper than enumeration allows; the map really converts.
  std::mt19937 rng(23);
  auto random = [&](llvm::ArrayRef<int64_t> shape) {
    U order = rng() % 2 ? U{1, 0} : U{0, 1};
    unsigned lanes0 = 1u << (rng() % 6), warps0 = 1u << (rng() % 3);
    CGABases cga;
    if (rng() % 4 == 0)
      cga.push_back(rng() % 2 ? LL::Basis{1, 0} : LL::Basis{0, 1});
    else if (rng() % 4 == 0)
      cga.push_back(LL::Basis{0, 0});
    return blockedLL({1u << (rng() % 3), 1u << (rng() % 3)}, {lanes0, 32 / lanes0},
                     {warps0, 4 / warps0}, order, shape, cga);
  };
  int counts[5] = {};
  for (int trial = 0; trial < 400; ++trial) {
    llvm::SmallVector<int64_t> shape = {int64_t(1) << (rng() % 6), int64_t(1) << (rng() % 6)};
    LL src = random(shape), dst = random(shape);
    if (src.getInDimSize("block") != dst.getInDimSize("block"))
      continue;
    if (trial % 5 == 0)
      dst = src;
    ConversionKind kind = classify(src, dst), best = locality(src, dst);
    ASSERT_GE(int(kind), int(best)) << src.toString() << dst.toString();
    ASSERT_EQ(kind == ConversionKind::None, src == dst);
    ++counts[int(kind)];
    std::optional<LL> c = dst.invertAndCompose(src);
    ASSERT_TRUE(c.has_value());
    forEachInput(
        dst, [&](llvm::ArrayRef<int32_t> x) { ASSERT_EQ(src.apply(c->apply(x)), dst.apply(x)); });
  }
  for (int k = 0; k < 5; ++k)
    EXPECT_GT(counts[k], 0) << "no random case of kind " << toString(ConversionKind(k)).str();
}

TEST(Queries, ConversionErrors) {
  LL a = example();
  auto message = [](llvm::Expected<ConversionKind> k) {
    return k ? std::string("ok") : llvm::toString(k.takeError());
  };
  EXPECT_EQ(message(classifyConversion(a, blockedLL({1, 4}, {8, 4}, {4, 1}, {1, 0}, {64, 32}))),
            "cannot convert between layouts of different tensor shapes");
  EXPECT_EQ(message(classifyConversion(a, sharedLL(1, 1, 1, {1, 0}, {64, 64}))),
            "only conversions between distributed layouts can be classified");
}

TEST(Queries, TransposeLayout) {
  // tt.trans of a row-major blocked layout is the column-major one.
  EXPECT_EQ(transposeLayout(example(), {1, 0}),
            blockedLL({4, 1}, {4, 8}, {1, 4}, {0, 1}, {64, 64}));
  std::mt19937 rng(24);
  for (int trial = 0; trial < 50; ++trial) {
    LL ll = blockedLL({1, 2, 1}, {2, 4, 4}, {2, 1, 2}, {2, 1, 0}, {4, 8, 16});
    U order = {0, 1, 2};
    std::shuffle(order.begin(), order.end(), rng);
    LL t = transposeLayout(ll, order);
    forEachInput(ll, [&](llvm::ArrayRef<int32_t> x) {
      llvm::SmallVector<int32_t> y = ll.apply(x), expect;
      for (unsigned d : order)
        expect.push_back(y[d]);
      ASSERT_EQ(t.apply(x), expect);
    });
  }
}

TEST(Queries, ReshapeLayout) {
  // Every element keeps its place in hardware and its row-major index.
  LL ll = example();
  for (llvm::SmallVector<int64_t> shape :
       {llvm::SmallVector<int64_t>{4096}, llvm::SmallVector<int64_t>{16, 256},
        llvm::SmallVector<int64_t>{4, 16, 64}}) {
    LL r = reshapeLayout(ll, shape);
    ASSERT_EQ(outSizes(r), shape);
    forEachInput(ll, [&](llvm::ArrayRef<int32_t> x) {
      ASSERT_EQ(linearIndex(r.apply(x), shape), linearIndex(ll.apply(x), {64, 64}));
    });
  }
}

TEST(Queries, ZeroBasisMask) {
  // 64 elements, 4 consecutive per thread: 16 lanes cover them, so the top
  // lane bit (16) and both warp bits only repeat data; registers make no
  // copies.
  LL ll = blockedLL({4}, {32}, {4}, {0}, {64});
  EXPECT_EQ(zeroBasisMask(ll, kRegister), 0u);
  EXPECT_EQ(zeroBasisMask(ll, kLane), 0x10u);
  EXPECT_EQ(zeroBasisMask(ll, kWarp), 0x3u);
  EXPECT_EQ(zeroBasisMask(ll, kLane), ll.getFreeVariableMask(kLane));
  // A lane basis that repeats a register basis is free but not zero.
  std::vector<std::string> outs{"dim0"};
  LL rep({{std::string(kRegister), {{1}}}, {std::string(kLane), {{1}, {2}}}}, outs);
  EXPECT_EQ(rep.getFreeVariableMask(kLane), 0x1u);
  EXPECT_EQ(zeroBasisMask(rep, kLane), 0u);
}

TEST(Queries, AxisBits1D) {
  // The corpus's reductions: 1024 elements, one per thread per 128.
  LL ll = blockedLL({1}, {32}, {4}, {0}, {1024});
  llvm::Expected<AxisBits> bits = axisBits(ll, 0);
  ASSERT_TRUE(bool(bits)) << llvm::toString(bits.takeError());
  EXPECT_EQ(bits->registerAxis, 0b111u);
  EXPECT_EQ(bits->laneAxis, 0x1fu);
  EXPECT_EQ(bits->warpAxis, 0b11u);
  EXPECT_EQ(bits->registerCopies | bits->laneCopies | bits->warpCopies, 0u);

  // 64 elements over 128 threads: warps 2 and 3 hold copies of 0 and 1.
  LL small = blockedLL({1}, {32}, {4}, {0}, {64});
  bits = axisBits(small, 0);
  ASSERT_TRUE(bool(bits)) << llvm::toString(bits.takeError());
  EXPECT_EQ(bits->registerAxis, 0u);
  EXPECT_EQ(bits->laneAxis, 0x1fu);
  EXPECT_EQ(bits->warpAxis, 0b01u);
  EXPECT_EQ(bits->warpCopies, 0b10u);
}

TEST(Queries, AxisBits2D) {
  // The running example: registers (0,1) (0,2) (0,16) (0,32) (32,0), lanes
  // (0,4) (0,8) (1,0) (2,0) (4,0), warps (8,0) (16,0).
  LL ll = example();
  llvm::Expected<AxisBits> rows = axisBits(ll, 1);
  ASSERT_TRUE(bool(rows)) << llvm::toString(rows.takeError());
  EXPECT_EQ(rows->registerAxis, 0b01111u);
  EXPECT_EQ(rows->laneAxis, 0b00011u);
  EXPECT_EQ(rows->warpAxis, 0u);
  llvm::Expected<AxisBits> cols = axisBits(ll, 0);
  ASSERT_TRUE(bool(cols)) << llvm::toString(cols.takeError());
  EXPECT_EQ(cols->registerAxis, 0b10000u);
  EXPECT_EQ(cols->laneAxis, 0b11100u);
  EXPECT_EQ(cols->warpAxis, 0b11u);

  // By enumeration: flipping an axis bit moves along the axis only, to an
  // element the bits before it did not reach; flipping a copy bit reaches
  // an element held already.
  for (unsigned axis : {0u, 1u}) {
    AxisBits b = *axisBits(ll, axis);
    EXPECT_EQ(b.registerCopies | b.laneCopies | b.warpCopies, 0u);
    for (auto [in, mask] : {std::pair<llvm::StringRef, uint64_t>{kRegister, b.registerAxis},
                            {kLane, b.laneAxis}, {kWarp, b.warpAxis}})
      for (unsigned i = 0, e = ll.getInDimSizeLog2(in); i < e; ++i) {
        llvm::ArrayRef<int32_t> basis = ll.getBasis(in, i);
        EXPECT_EQ(bool(mask >> i & 1), basis[axis] != 0) << in.str() << " bit " << i;
        if (mask >> i & 1)
          EXPECT_EQ(basis[1 - axis], 0);
      }
  }
}

TEST(Queries, AxisBitsCopiesAndMixedBases) {
  // lane=1 repeats register=1's basis: a copy, never an axis bit.
  LL dup(std::vector<LL::InDim>{{"register", {{1}}},
          {"lane", {{1}, {2}, {4}, {8}, {16}}},
          {"warp", {}},
          {"block", {}}},
         std::vector<LL::DimSize>{{dimName(0), 32}}, /*requireSurjective=*/true);
  llvm::Expected<AxisBits> bits = axisBits(dup, 0);
  ASSERT_TRUE(bool(bits)) << llvm::toString(bits.takeError());
  EXPECT_EQ(bits->registerAxis, 1u);
  EXPECT_EQ(bits->laneAxis, 0b11110u);
  EXPECT_EQ(bits->laneCopies, 0b00001u);

  // A register moving along both dimensions cannot be split by axis.
  LL mixed(std::vector<LL::InDim>{{"register", {{1, 1}}},
            {"lane", {{2, 0}, {4, 0}, {8, 0}, {16, 0}, {0, 2}}},
            {"warp", {}},
            {"block", {}}},
           std::vector<LL::DimSize>{{dimName(0), 32}, {dimName(1), 4}},
           /*requireSurjective=*/false);
  llvm::Expected<AxisBits> err = axisBits(mixed, 0);
  ASSERT_FALSE(bool(err));
  EXPECT_EQ(llvm::toString(err.takeError()),
            "register=1 moves along dimension 0 and another at once");
  // Along dimension 1 the same register is the problem.
  llvm::Expected<AxisBits> err1 = axisBits(mixed, 1);
  ASSERT_FALSE(bool(err1));
  EXPECT_EQ(llvm::toString(err1.takeError()),
            "register=1 moves along dimension 1 and another at once");
}

} // namespace

// One CTA's tile of a layout over a cluster: by enumeration, every
// (register, lane, warp) of CTA b holds in the tile the element the whole
// layout gives it, less the CTA's corner, and the tile has the shape of one
// CTA's part.
TEST(Queries, CtaTileByEnumeration) {
  struct Case {
    U spt, tpw, wpc, order;
    std::vector<int64_t> shape;
    CGABases cga;
  };
  std::vector<Case> cases = {
      {{1}, {32}, {4}, {0}, {1024}, {{1}}},
      {{1, 1}, {1, 32}, {1, 4}, {1, 0}, {64, 128}, {{1, 0}}},
      {{1, 4}, {8, 4}, {2, 2}, {1, 0}, {64, 128}, {{0, 1}, {0, 2}}},
      {{2, 2}, {4, 8}, {4, 1}, {0, 1}, {64, 64}, {{1, 0}, {0, 1}}},
      // A tensor smaller than the CTA tile: lanes wrap, the split stays.
      {{1}, {32}, {4}, {0}, {64}, {{1}}},
      // A zero basis: both CTAs hold copies.
      {{1, 1}, {1, 32}, {2, 2}, {1, 0}, {32, 64}, {{0, 0}, {1, 0}}},
  };
  for (const Case &c : cases) {
    LL whole = blockedLL(c.spt, c.tpw, c.wpc, c.order, c.shape, c.cga);
    llvm::Expected<LL> tile = ctaTile(whole);
    ASSERT_TRUE(bool(tile)) << llvm::toString(tile.takeError());
    EXPECT_EQ(tile->getInDimSize(kBlock), 1);
    EXPECT_EQ(tile->getInDimSize(kRegister), whole.getInDimSize(kRegister));
    llvm::SmallVector<int32_t> bits = blockCoordinateBits(whole);
    for (unsigned d = 0; d < c.shape.size(); ++d)
      EXPECT_EQ(int64_t(tile->getOutDimSize(dimName(d))) << llvm::popcount(uint32_t(bits[d])),
                c.shape[d]);
    for (int32_t b = 0; b < whole.getInDimSize(kBlock); ++b) {
      llvm::SmallVector<int32_t> corner = elementCoords(whole, 0, 0, 0, b);
      for (int32_t w = 0; w < whole.getInDimSize(kWarp); ++w)
        for (int32_t l = 0; l < whole.getInDimSize(kLane); ++l)
          for (int32_t r = 0; r < whole.getInDimSize(kRegister); ++r) {
            llvm::SmallVector<int32_t> g = elementCoords(whole, r, l, w, b);
            llvm::SmallVector<int32_t> t = elementCoords(*tile, r, l, w, 0);
            for (unsigned d = 0; d < g.size(); ++d) {
              // The CTA's bits are the top bits of each dimension here.
              int32_t within = g[d] & ~bits[d];
              EXPECT_EQ(within, t[d]) << "cta " << b << " dim " << d;
              EXPECT_EQ(g[d] & bits[d], corner[d] & bits[d]);
            }
          }
    }
  }
}

TEST(Queries, CtaTileErrors) {
  // A block basis along two dimensions at once has no CTA tile.
  LL::InDim reg{std::string(kRegister), {{1, 0}}};
  LL::InDim lane{std::string(kLane), {}};
  LL::InDim warp{std::string(kWarp), {}};
  LL::InDim block{std::string(kBlock), {{0, 1}, {1, 1}}};
  llvm::Expected<LL> diagonal =
      LL::create({reg, lane, warp, block}, {{"dim0", 2}, {"dim1", 2}}, false);
  ASSERT_TRUE(bool(diagonal)) << llvm::toString(diagonal.takeError());
  llvm::Expected<LL> tile = ctaTile(*diagonal);
  ASSERT_FALSE(bool(tile));
  EXPECT_NE(llvm::toString(tile.takeError()).find("do not split the tensor into CTA tiles"),
            std::string::npos);
  // A register basis on the bit that selects the CTA.
  LL::InDim overlap{std::string(kBlock), {{1, 0}}};
  llvm::Expected<LL> shared = LL::create({reg, lane, warp, overlap}, {{"dim0", 2}, {"dim1", 2}}, false);
  ASSERT_TRUE(bool(shared));
  llvm::Expected<LL> none = ctaTile(*shared);
  ASSERT_FALSE(bool(none));
  EXPECT_NE(llvm::toString(none.takeError()).find("select the CTA"), std::string::npos);
}

// A #ttg.linear layout may put the CTA bit below a register bit: the tile
// closes the gap (register 2 holds coordinate 4 of the whole dimension, 2
// of the CTA's tile).
TEST(Queries, CtaTileMiddleBit) {
  LL::InDim reg{std::string(kRegister), {{1}, {4}}};
  LL::InDim lane{std::string(kLane), {}};
  LL::InDim warp{std::string(kWarp), {}};
  LL::InDim block{std::string(kBlock), {{2}}};
  llvm::Expected<LL> whole = LL::create({reg, lane, warp, block}, {{"dim0", 8}}, true);
  ASSERT_TRUE(bool(whole)) << llvm::toString(whole.takeError());
  llvm::Expected<LL> tile = ctaTile(*whole);
  ASSERT_TRUE(bool(tile)) << llvm::toString(tile.takeError());
  EXPECT_EQ(tile->getOutDimSize("dim0"), 4);
  for (int32_t r = 0; r < 4; ++r)
    EXPECT_EQ(elementCoords(*tile, r, 0, 0)[0], r);
}

namespace {
LL distributed(std::vector<LL::Basis> reg, std::vector<LL::Basis> lane, std::vector<LL::Basis> warp,
               llvm::ArrayRef<int32_t> shape) {
  std::vector<LL::DimSize> outs;
  for (auto [d, size] : llvm::enumerate(shape))
    outs.push_back({dimName(d), size});
  llvm::Expected<LL> ll = LL::create({{std::string(kRegister), std::move(reg)},
                                      {std::string(kLane), std::move(lane)},
                                      {std::string(kWarp), std::move(warp)},
                                      {std::string(kBlock), {}}},
                                     outs, /*requireSurjective=*/false);
  if (!ll) {
    ADD_FAILURE() << llvm::toString(ll.takeError());
    return LL();
  }
  return *ll;
}

// Every result element, with every index value, is sent the element the
// gather names, from the reader's own warp.
void expectGathers(const LL &src, const LL &idx, unsigned axis, const LL &map) {
  int32_t extent = src.getOutDimSize(dimName(axis));
  forEachInput(idx, [&](llvm::ArrayRef<int32_t> in) {
    llvm::SmallVector<int32_t> want = idx.apply(in);
    for (int32_t v = 0; v < extent; ++v) {
      llvm::SmallVector<int32_t> at = map.apply({in[0], in[1], in[2], in[3], v});
      want[axis] = v;
      ASSERT_EQ(src.apply({at[0], at[1], in[2], 0}), want)
          << "register " << in[0] << " lane " << in[1] << " warp " << in[2] << " index " << v;
    }
  });
}
} // namespace

TEST(Queries, WarpLocalGatherLinear) {
  // Rows 0-15 in one register bit and three lane bits, columns spread over
  // registers, lanes and warps alike in both layouts (differently ordered).
  LL src = distributed({{1, 0}, {0, 16}}, {{2, 0}, {4, 0}, {8, 0}, {0, 1}, {0, 2}},
                       {{0, 4}, {0, 8}}, {16, 32});
  LL idx = distributed({{0, 16}, {4, 0}}, {{1, 0}, {2, 0}, {8, 0}, {0, 2}, {0, 1}},
                       {{0, 4}, {0, 8}}, {16, 32});
  std::optional<LL> map = warpLocalGather(src, idx, 0);
  ASSERT_TRUE(map.has_value());
  expectGathers(src, idx, 0, *map);
  // Index bit 0 picks the source register; the other index bits pick lanes.
  EXPECT_EQ(map->getBasis(kGatherIndex, 0, kRegister), 1);
  for (unsigned k = 1; k < 4; ++k)
    EXPECT_EQ(map->getBasis(kGatherIndex, k, kRegister), 0);
  // The index tensor's warp 1 holds columns 5, not 4, apart: still in the
  // source's warp 1, one lane over.
  LL skewed = distributed({{0, 16}, {4, 0}}, {{1, 0}, {2, 0}, {8, 0}, {0, 2}, {0, 1}},
                          {{0, 5}, {0, 8}}, {16, 32});
  map = warpLocalGather(src, skewed, 0);
  ASSERT_TRUE(map.has_value());
  expectGathers(src, skewed, 0, *map);
}

TEST(Queries, WarpLocalGatherBlocked) {
  // Warps split the columns the same way; the rows stay in each warp.
  LL src = blockedLL({1, 4}, {8, 4}, {1, 4}, {1, 0}, {32, 64});
  LL idx = blockedLL({2, 1}, {2, 16}, {1, 4}, {0, 1}, {16, 64});
  std::optional<LL> map = warpLocalGather(src, idx, 0);
  ASSERT_TRUE(map.has_value());
  expectGathers(src, idx, 0, *map);
  // A source held twice (warps broadcast): any copy in the reader's warp.
  LL copies = blockedLL({1, 1}, {32, 1}, {1, 4}, {0, 1}, {32, 1});
  LL wide = blockedLL({1, 1}, {32, 1}, {4, 1}, {0, 1}, {128, 1});
  map = warpLocalGather(copies, wide, 0);
  ASSERT_TRUE(map.has_value());
  expectGathers(copies, wide, 0, *map);
}

TEST(Queries, WarpLocalGatherRefused) {
  // Warps split the gather axis.
  LL rows = blockedLL({1, 4}, {8, 4}, {4, 1}, {1, 0}, {32, 16});
  EXPECT_FALSE(warpLocalGather(rows, rows, 0).has_value());
  // Gathering along the columns of the same layout stays in the warp.
  std::optional<LL> cols = warpLocalGather(rows, rows, 1);
  ASSERT_TRUE(cols.has_value());
  expectGathers(rows, rows, 1, *cols);
  // The index tensor's warps hold other columns than the source's.
  LL src = blockedLL({1, 4}, {8, 4}, {1, 4}, {1, 0}, {32, 64});
  LL idx = blockedLL({2, 1}, {4, 8}, {1, 4}, {0, 1}, {16, 64});
  EXPECT_FALSE(warpLocalGather(src, idx, 0).has_value());
}
