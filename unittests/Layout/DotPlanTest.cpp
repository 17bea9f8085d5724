//===- DotPlanTest.cpp - the registers fed to mma.sync and FMAs -----------===//
//
// The plans are checked against the PTX ISA's fragment tables written out
// here as formulas of the lane (groupID = lane / 4, threadID_in_group =
// lane % 4), by evaluating the operand layouts on the registers picked:
// a wrong operand order, a wrong pair of registers or A and B disagreeing
// on K all fail.
//
//===----------------------------------------------------------------------===//
#include "LayoutTestUtil.h"

#include "kiln/Analysis/DotPlan.h"
#include "kiln/Layout/Encodings.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace kiln::layout;
using LL = LinearLayout;
using U = llvm::SmallVector<unsigned>;

namespace {

LL toLL(llvm::Expected<LL> ll) {
  if (!ll) {
    ADD_FAILURE() << llvm::toString(ll.takeError());
    return LL();
  }
  return *ll;
}

struct Dot {
  LL a, b, c;
};

/// A tt.dot of (batch x) M x N x K on mma v2 with `warps`, A and B of
/// kWidth kA and kB.
Dot mmaDot(llvm::SmallVector<int64_t> mnk, U warps, unsigned kA, unsigned kB) {
  size_t rank = warps.size();
  U instr(rank, 1);
  instr[rank - 2] = 16;
  instr[rank - 1] = 8;
  NvidiaMmaEncoding mma{2, 0, warps, instr, {}};
  llvm::SmallVector<int64_t> batch(mnk.begin(), mnk.end() - 3);
  int64_t m = mnk[mnk.size() - 3], n = mnk[mnk.size() - 2], k = mnk.back();
  auto shape = [&](int64_t r, int64_t c) {
    llvm::SmallVector<int64_t> s = batch;
    s.append({r, c});
    return s;
  };
  return {toLL(toLinearLayout(NvidiaDotOperandEncoding{0, kA, mma}, shape(m, k))),
          toLL(toLinearLayout(NvidiaDotOperandEncoding{1, kB, mma}, shape(k, n))),
          toLL(toLinearLayout(mma, shape(m, n)))};
}

llvm::SmallVector<int32_t> point(const LL &ll,
                                 llvm::ArrayRef<std::pair<llvm::StringRef, int32_t>> in) {
  llvm::SmallVector<int32_t> out;
  for (const auto &[name, value] : ll.apply(in))
    out.push_back(value);
  return out;
}

/// The tensor coordinate register `reg` of lane `lane` (warp 0) holds.
llvm::SmallVector<int32_t> at(const LL &ll, int32_t reg, int32_t lane, int32_t warp = 0) {
  return point(ll, {{"register", reg}, {"lane", lane}, {"warp", warp}});
}

// The PTX ISA's tables for m16n8k16 (.f16/.bf16), m16n8k32 (.s8/.e4m3) and
// m16n8k8 (.tf32): element i of a thread, p elements per 32-bit register.
std::pair<int32_t, int32_t> ptxA(unsigned bits, int32_t i, int32_t lane) {
  int32_t g = lane / 4, t = lane % 4, p = 32 / int32_t(bits), reg = i / p;
  return {g + 8 * (reg & 1), t * p + i % p + 4 * p * (reg >> 1)};
}
std::pair<int32_t, int32_t> ptxB(unsigned bits, int32_t i, int32_t lane) {
  int32_t g = lane / 4, t = lane % 4, p = 32 / int32_t(bits), reg = i / p;
  return {t * p + i % p + 4 * p * reg, g};
}
std::pair<int32_t, int32_t> ptxC(int32_t i, int32_t lane) {
  return {lane / 4 + 8 * (i >> 1), 2 * (lane % 4) + (i & 1)};
}

TEST(DotPlan, FragmentsAreThePtxTables) {
  for (unsigned bits : {8u, 16u, 32u}) {
    LL fa = mmaV2Fragment(MmaOperand::A, bits), fb = mmaV2Fragment(MmaOperand::B, bits);
    LL fc = mmaV2Fragment(MmaOperand::C, bits);
    for (int32_t lane = 0; lane < 32; ++lane) {
      for (int32_t i = 0; i < fa.getInDimSize("slot"); ++i) {
        auto [r, c] = ptxA(bits, i, lane);
        EXPECT_EQ(point(fa, {{"slot", i}, {"lane", lane}}), (llvm::SmallVector<int32_t>{r, c}));
      }
      for (int32_t i = 0; i < fb.getInDimSize("slot"); ++i) {
        auto [r, c] = ptxB(bits, i, lane);
        EXPECT_EQ(point(fb, {{"slot", i}, {"lane", lane}}), (llvm::SmallVector<int32_t>{r, c}));
      }
      for (int32_t i = 0; i < 4; ++i) {
        auto [r, c] = ptxC(i, lane);
        EXPECT_EQ(point(fc, {{"slot", i}, {"lane", lane}}), (llvm::SmallVector<int32_t>{r, c}));
      }
    }
    EXPECT_EQ(fa.getInDimSize("slot"), int32_t(4 * 32 / bits));
    EXPECT_EQ(fb.getInDimSize("slot"), int32_t(2 * 32 / bits));
  }
}

/// With Triton's kWidth (32 / bits) the registers picked hold exactly the
/// PTX tables' elements, offset by the step's tile; the steps of one C
/// tile cover K once. Every warp and lane is checked.
void expectExactFragments(const Dot &dot, unsigned bits, int64_t kSize, int numWarps) {
  llvm::Expected<MmaV2Plan> plan = planMmaV2(dot.a, dot.b, dot.c, bits);
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  unsigned rank = dot.c.getNumOutDims();
  std::map<llvm::SmallVector<int32_t>, std::set<int32_t>> kPerTile;
  std::set<int32_t> cRegs;
  for (const MmaV2Step &step : plan->steps) {
    ASSERT_EQ(step.a.size(), size_t(4 * 32 / bits));
    ASSERT_EQ(step.b.size(), size_t(2 * 32 / bits));
    ASSERT_EQ(step.c.size(), 4u);
    for (int warp = 0; warp < numWarps; ++warp) {
      auto a0 = at(dot.a, step.a[0], 0, warp), b0 = at(dot.b, step.b[0], 0, warp);
      auto c0 = at(dot.c, step.c[0], 0, warp);
      // One tile: A's rows are C's rows, B's columns C's, A's K B's K.
      EXPECT_EQ(a0[rank - 2], c0[rank - 2]);
      EXPECT_EQ(b0[rank - 1], c0[rank - 1]);
      EXPECT_EQ(a0[rank - 1], b0[rank - 2]);
      for (unsigned x = 0; x + 2 < rank; ++x)
        EXPECT_TRUE(a0[x] == c0[x] && b0[x] == c0[x]);
      for (int32_t lane = 0; lane < 32; ++lane) {
        for (auto [i, r] : llvm::enumerate(step.a)) {
          auto got = at(dot.a, r, lane, warp);
          auto [row, col] = ptxA(bits, int32_t(i), lane);
          EXPECT_EQ(got[rank - 2] - a0[rank - 2], row) << "A slot " << i << " lane " << lane;
          EXPECT_EQ(got[rank - 1] - a0[rank - 1], col) << "A slot " << i << " lane " << lane;
        }
        for (auto [i, r] : llvm::enumerate(step.b)) {
          auto got = at(dot.b, r, lane, warp);
          auto [row, col] = ptxB(bits, int32_t(i), lane);
          EXPECT_EQ(got[rank - 2] - b0[rank - 2], row) << "B slot " << i << " lane " << lane;
          EXPECT_EQ(got[rank - 1] - b0[rank - 1], col) << "B slot " << i << " lane " << lane;
        }
        for (auto [i, r] : llvm::enumerate(step.c)) {
          auto got = at(dot.c, r, lane, warp);
          auto [row, col] = ptxC(int32_t(i), lane);
          EXPECT_EQ(got[rank - 2] - c0[rank - 2], row) << "C slot " << i << " lane " << lane;
          EXPECT_EQ(got[rank - 1] - c0[rank - 1], col) << "C slot " << i << " lane " << lane;
        }
      }
      if (warp == 0) {
        kPerTile[c0].insert(a0[rank - 1]);
        cRegs.insert(step.c.begin(), step.c.end());
      }
    }
  }
  int32_t instrK = 8 * 32 / int32_t(bits);
  for (auto &[tile, ks] : kPerTile) {
    EXPECT_EQ(int64_t(ks.size()) * instrK, kSize);
    for (int32_t k : ks)
      EXPECT_EQ(k % instrK, 0);
  }
  // Every C register is computed (or copies one that is).
  for (int32_t r = 0, e = dot.c.getInDimSize("register"); r < e; ++r)
    EXPECT_TRUE(cRegs.count(plan->cCopies[r])) << "C register " << r;
}

TEST(DotPlan, F16KWidth2IsThePtxTable) {
  expectExactFragments(mmaDot({64, 64, 32}, {2, 2}, 2, 2), 16, 32, 4);
  expectExactFragments(mmaDot({128, 128, 64}, {4, 1}, 2, 2), 16, 64, 4);
  expectExactFragments(mmaDot({16, 8, 16}, {1, 1}, 2, 2), 16, 16, 1);
}

TEST(DotPlan, Int8Tf32AndBatched) {
  expectExactFragments(mmaDot({64, 32, 64}, {2, 2}, 4, 4), 8, 64, 4);  // m16n8k32
  expectExactFragments(mmaDot({32, 32, 16}, {2, 2}, 1, 1), 32, 16, 4); // tf32 m16n8k8
  expectExactFragments(mmaDot({2, 32, 16, 32}, {2, 2, 1}, 2, 2), 16, 32, 4);
}

/// With a larger kWidth one instruction's K is a permutation of tensor
/// K; A and B must agree on it slot for slot.
void expectAgreeingK(const Dot &dot, unsigned bits, int64_t kSize) {
  llvm::Expected<MmaV2Plan> plan = planMmaV2(dot.a, dot.b, dot.c, bits);
  ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
  LL fa = mmaV2Fragment(MmaOperand::A, bits), fb = mmaV2Fragment(MmaOperand::B, bits);
  std::map<llvm::SmallVector<int32_t>, std::set<int32_t>> kPerTile;
  for (const MmaV2Step &step : plan->steps) {
    std::map<int32_t, int32_t> kOfHardwareK; // from A
    for (int32_t lane = 0; lane < 32; ++lane)
      for (auto [i, r] : llvm::enumerate(step.a)) {
        int32_t hw = point(fa, {{"slot", int32_t(i)}, {"lane", lane}})[1];
        int32_t k = at(dot.a, r, lane)[1];
        auto [it, fresh] = kOfHardwareK.emplace(hw, k);
        EXPECT_EQ(it->second, k) << "A's rows disagree on hardware k " << hw;
      }
    std::set<int32_t> distinct;
    for (auto [hw, k] : kOfHardwareK)
      distinct.insert(k);
    EXPECT_EQ(distinct.size(), kOfHardwareK.size());
    for (int32_t lane = 0; lane < 32; ++lane)
      for (auto [i, r] : llvm::enumerate(step.b)) {
        int32_t hw = point(fb, {{"slot", int32_t(i)}, {"lane", lane}})[0];
        EXPECT_EQ(at(dot.b, r, lane)[0], kOfHardwareK[hw]) << "B slot " << i << " lane " << lane;
      }
    auto c0 = at(dot.c, step.c[0], 0);
    kPerTile[c0].insert(distinct.begin(), distinct.end());
  }
  for (auto &[tile, ks] : kPerTile) {
    EXPECT_EQ(int64_t(ks.size()), kSize);
    EXPECT_EQ(*ks.rbegin(), kSize - 1);
  }
}

TEST(DotPlan, LargerKWidthPermutesKInBothOperands) {
  expectAgreeingK(mmaDot({64, 64, 64}, {2, 2}, 8, 8), 16, 64);
  expectAgreeingK(mmaDot({32, 16, 64}, {1, 2}, 4, 4), 16, 64);
  expectAgreeingK(mmaDot({32, 16, 128}, {2, 1}, 16, 16), 8, 128);
  expectAgreeingK(mmaDot({32, 16, 32}, {2, 1}, 4, 4), 32, 32);
}

TEST(DotPlan, MismatchedOperandsAreErrors) {
  Dot mixed = mmaDot({64, 64, 64}, {2, 2}, 2, 4);
  llvm::Expected<MmaV2Plan> plan = planMmaV2(mixed.a, mixed.b, mixed.c, 16);
  ASSERT_FALSE(bool(plan));
  EXPECT_NE(llvm::toString(plan.takeError()).find("lane bit 0 moves B"), std::string::npos);
  // K of 8 is below one m16n8k16.
  Dot small = mmaDot({16, 8, 8}, {1, 1}, 2, 2);
  plan = planMmaV2(small.a, small.b, small.c, 16);
  ASSERT_FALSE(bool(plan));
  EXPECT_NE(llvm::toString(plan.takeError()).find("one mma.sync needs 16"), std::string::npos);
  // A and C from different warp splits.
  Dot a = mmaDot({64, 64, 32}, {4, 1}, 2, 2), c = mmaDot({64, 64, 32}, {1, 4}, 2, 2);
  plan = planMmaV2(a.a, c.b, c.c, 16);
  ASSERT_FALSE(bool(plan));
  EXPECT_NE(llvm::toString(plan.takeError()).find("warp bit"), std::string::npos);
}

TEST(DotPlan, FmaTermsHoldTheRowAndColumn) {
  BlockedEncoding parent{U{2, 2}, U{4, 8}, U{2, 2}, U{1, 0}, {}};
  for (llvm::SmallVector<int64_t> mnk :
       {llvm::SmallVector<int64_t>{32, 64, 8}, {16, 16, 4}, {64, 32, 1}}) {
    int64_t m = mnk[0], n = mnk[1], k = mnk[2];
    LL a = toLL(toLinearLayout(BlockedDotOperandEncoding{0, parent}, {m, k}));
    LL b = toLL(toLinearLayout(BlockedDotOperandEncoding{1, parent}, {k, n}));
    LL c = toLL(toLinearLayout(parent, {m, n}));
    llvm::Expected<FmaPlan> plan = planFma(a, b, c);
    ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
    for (int32_t r = 0, e = c.getInDimSize("register"); r < e; ++r) {
      if (plan->cCopies[r] != r)
        continue;
      ASSERT_EQ(int64_t(plan->terms[r].size()), k);
      for (int32_t lane = 0; lane < 32; lane += 5)
        for (int32_t warp = 0; warp < 4; ++warp) {
          auto cc = at(c, r, lane, warp);
          for (auto [kk, term] : llvm::enumerate(plan->terms[r])) {
            auto aa = at(a, term.first, lane, warp), bb = at(b, term.second, lane, warp);
            EXPECT_EQ(aa, (llvm::SmallVector<int32_t>{cc[0], int32_t(kk)}));
            EXPECT_EQ(bb, (llvm::SmallVector<int32_t>{int32_t(kk), cc[1]}));
          }
        }
    }
  }
}

TEST(DotPlan, FmaOperandLayoutBroadcastsAlongK) {
  // Triton's fmaDotToLinearLayout: K in registers, the parent's lanes and
  // warps along N (for A) hold copies.
  BlockedEncoding parent{U{1, 4}, U{8, 4}, U{4, 1}, U{1, 0}, {}};
  LL a = toLL(toLinearLayout(BlockedDotOperandEncoding{0, parent}, {32, 8}));
  EXPECT_EQ(a, LL({{"register", {{0, 1}, {0, 2}, {0, 4}}},
                   {"lane", {{0, 0}, {0, 0}, {1, 0}, {2, 0}, {4, 0}}},
                   {"warp", {{8, 0}, {16, 0}}},
                   {"block", {}}},
                  {"dim0", "dim1"}));
  LL b = toLL(toLinearLayout(BlockedDotOperandEncoding{1, parent}, {8, 16}));
  EXPECT_EQ(b, LL({{"register", {{0, 1}, {0, 2}, {1, 0}, {2, 0}, {4, 0}}},
                   {"lane", {{0, 4}, {0, 8}, {0, 0}, {0, 0}, {0, 0}}},
                   {"warp", {{0, 0}, {0, 0}}},
                   {"block", {}}},
                  {"dim0", "dim1"}));
}

} // namespace
