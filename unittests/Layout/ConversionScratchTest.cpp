//===- ConversionScratchTest.cpp - convert_layout's swizzled scratch ------===//
//
// The scratch layout is checked by enumeration: it is a bijection, each
// thread's registers fill whole vectors of one round, and every store of
// the source layout and load of the destination layout is served in one
// wavefront per 128-byte line (banks counted per phase of lanes).
//
//===----------------------------------------------------------------------===//
#include "LayoutTestUtil.h"

#include "kiln/Layout/Encodings.h"
#include "kiln/Layout/Queries.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace kiln::layout;
using namespace kiln::layout::test;
using LL = LinearLayout;
using U = llvm::SmallVector<unsigned>;

namespace {

LL blocked(U spt, U tpw, U wpc, U order, llvm::ArrayRef<int64_t> shape) {
  llvm::Expected<LL> ll = toLinearLayout(BlockedEncoding{spt, tpw, wpc, order, {}}, shape);
  if (!ll) {
    ADD_FAILURE() << llvm::toString(ll.takeError());
    return LL();
  }
  return *ll;
}

using Coords = std::vector<int32_t>;

Coords coordsAt(const LL &ll, int32_t reg, int32_t lane, int32_t warp) {
  llvm::SmallVector<int32_t> c = elementCoords(ll, reg, lane, warp);
  return Coords(c.begin(), c.end());
}

struct Where {
  int64_t offset;
  int32_t round;
};

/// Element -> (offset, round), by enumerating the scratch layout.
std::map<Coords, Where> placeOf(const ConversionScratch &s) {
  std::map<Coords, Where> place;
  for (int32_t r = 0; r < s.numRounds(); ++r)
    for (int64_t o = 0; o < s.elementsPerRound(); ++o) {
      llvm::SmallVector<int32_t> c = s.layout.apply({int32_t(o), r});
      place[Coords(c.begin(), c.end())] = {o, r};
    }
  return place;
}

/// The most distinct 4-byte words any bank is asked for in one wavefront,
/// over every access of `ll` (1 = conflict free). Lanes are served in
/// phases of 128 bytes' worth of accesses.
unsigned worstWavefronts(const LL &ll, const ConversionScratch &s, unsigned elemBits) {
  std::map<Coords, Where> place = placeOf(s);
  unsigned vec = 1u << s.vectorBits;
  unsigned bytes = std::max(1u, elemBits / 8) * vec;
  unsigned warpSize = ll.getInDimSize(kLane);
  unsigned phase = bytes >= 4 ? std::max(1u, 128 / bytes) : warpSize;
  unsigned worst = 0;
  for (int32_t warp = 0; warp < ll.getInDimSize(kWarp); ++warp)
    for (int32_t reg = 0; reg < ll.getInDimSize(kRegister); ++reg) {
      // One access per vector: the register at the vector's first slot.
      Where w0 = place[coordsAt(ll, reg, 0, warp)];
      if (w0.offset % vec != 0)
        continue;
      for (unsigned first = 0; first < warpSize; first += phase) {
        std::map<unsigned, std::set<int64_t>> wordsPerBank;
        for (unsigned lane = first; lane < std::min(warpSize, first + phase); ++lane) {
          Where w = place[coordsAt(ll, reg, lane, warp)];
          int64_t addr = w.offset * std::max(1u, elemBits / 8);
          for (int64_t word = addr / 4; word <= (addr + bytes - 1) / 4; ++word)
            wordsPerBank[word % 32].insert(word);
        }
        for (auto &[bank, words] : wordsPerBank)
          worst = std::max<unsigned>(worst, words.size());
      }
    }
  return worst;
}

/// Each thread's registers cover whole vectors of one round, and the
/// lane/warp part never moves an element between vector slots or rounds.
void checkVectorsAreThreadLocal(const LL &ll, const ConversionScratch &s) {
  std::map<Coords, Where> place = placeOf(s);
  unsigned vec = 1u << s.vectorBits;
  for (int32_t warp = 0; warp < ll.getInDimSize(kWarp); ++warp)
    for (int32_t lane = 0; lane < ll.getInDimSize(kLane); ++lane) {
      std::map<std::pair<int32_t, int64_t>, std::set<int64_t>> slots;
      for (int32_t reg = 0; reg < ll.getInDimSize(kRegister); ++reg) {
        Where w = place[coordsAt(ll, reg, lane, warp)];
        Where w0 = place[coordsAt(ll, reg, 0, 0)];
        EXPECT_EQ(w.round, w0.round);
        EXPECT_EQ(w.offset % vec, w0.offset % vec);
        slots[{w.round, w.offset / vec}].insert(w.offset % vec);
      }
      for (auto &[key, held] : slots)
        EXPECT_EQ(held.size(), vec);
    }
}

struct Case {
  const char *name;
  LL src, dst;
  unsigned elemBits;
  unsigned expectVectorBits, expectRounds;
};

void checkCase(const Case &c) {
  SCOPED_TRACE(c.name);
  llvm::Expected<ConversionScratch> s = conversionScratch(c.src, c.dst, c.elemBits);
  ASSERT_TRUE(bool(s)) << llvm::toString(s.takeError());
  EXPECT_TRUE(s->layout.isInvertible());
  EXPECT_EQ(s->vectorBits, c.expectVectorBits);
  EXPECT_EQ(s->numRounds(), int32_t(c.expectRounds));
  EXPECT_EQ(s->elementsPerRound() * s->numRounds(), c.src.getTotalOutDimSize());
  checkVectorsAreThreadLocal(c.src, *s);
  checkVectorsAreThreadLocal(c.dst, *s);
  EXPECT_EQ(worstWavefronts(c.src, *s, c.elemBits), 1u) << "stores conflict";
  EXPECT_EQ(worstWavefronts(c.dst, *s, c.elemBits), 1u) << "loads conflict";
}

TEST(ConversionScratch, CorpusTranspose) {
  // transpose_2d: 32x64 f32 from lanes down dim0 to lanes along dim1.
  checkCase({"transpose_2d", blocked({1, 1}, {32, 1}, {1, 4}, {0, 1}, {32, 64}),
             blocked({1, 1}, {1, 32}, {2, 2}, {1, 0}, {32, 64}), 32, 0, 1});
}

TEST(ConversionScratch, CorpusGatherRows) {
  LL rowMajor = blocked({1, 4}, {8, 4}, {4, 1}, {1, 0}, {32, 16});
  LL colMajor = blocked({1, 1}, {32, 1}, {1, 4}, {0, 1}, {32, 16});
  checkCase({"gather_rows in", rowMajor, colMajor, 32, 0, 1});
  checkCase({"gather_rows out", colMajor, rowMajor, 32, 0, 1});
}

TEST(ConversionScratch, CorpusHistogramPointers) {
  // 1024 pointers from 4 per thread to 1 per thread: the two layouts share
  // only register bit 512 (the repeat), a 16-byte vector of two pointers.
  checkCase({"histogram", blocked({4}, {32}, {4}, {0}, {1024}), blocked({1}, {32}, {4}, {0}, {1024}),
             64, 1, 1});
}

TEST(ConversionScratch, CorpusLayernormHalf) {
  checkCase({"layernorm", blocked({8}, {32}, {4}, {0}, {1024}), blocked({1}, {32}, {4}, {0}, {1024}),
             16, 0, 1});
}

TEST(ConversionScratch, SharedRegistersGiveVectorsThenRounds) {
  // Both keep 4 consecutive columns per thread and 4 repeats in registers:
  // 16-byte vectors, and the repeats the two layouts share become rounds.
  LL a = blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}, {64, 64});
  LL b = blocked({1, 4}, {32, 1}, {1, 4}, {1, 0}, {64, 64});
  llvm::Expected<ConversionScratch> s = conversionScratch(a, b, 32);
  ASSERT_TRUE(bool(s)) << llvm::toString(s.takeError());
  EXPECT_EQ(s->vectorBits, 2u);
  checkCase({"rows to columns of 4", a, b, 32, 2, unsigned(s->numRounds())});
  EXPECT_EQ(s->numRounds(), 4);
  // f16: eight halves fill the 16 bytes, one fewer bit is left for rounds.
  checkCase({"same, f16", a, b, 16, 3, 2});
}

TEST(ConversionScratch, ManyBlockedPairsAreConflictFree) {
  std::vector<LL> layouts = {
      blocked({1, 1}, {32, 1}, {4, 1}, {0, 1}, {64, 64}), blocked({1, 1}, {1, 32}, {4, 1}, {1, 0}, {64, 64}),
      blocked({1, 4}, {8, 4}, {4, 1}, {1, 0}, {64, 64}),  blocked({4, 1}, {4, 8}, {1, 4}, {0, 1}, {64, 64}),
      blocked({2, 2}, {4, 8}, {2, 2}, {1, 0}, {64, 64}),  blocked({1, 8}, {16, 2}, {1, 4}, {1, 0}, {64, 64}),
      blocked({8, 1}, {2, 16}, {2, 2}, {0, 1}, {64, 64})};
  for (unsigned bits : {8u, 16u, 32u, 64u})
    for (size_t i = 0; i < layouts.size(); ++i)
      for (size_t j = 0; j < layouts.size(); ++j) {
        if (i == j)
          continue;
        SCOPED_TRACE(testing::Message() << "pair " << i << "->" << j << ", " << bits << " bits");
        llvm::Expected<ConversionScratch> s = conversionScratch(layouts[i], layouts[j], bits);
        ASSERT_TRUE(bool(s)) << llvm::toString(s.takeError());
        EXPECT_TRUE(s->layout.isInvertible());
        EXPECT_LE((bits / 8) << s->vectorBits, 16u);
        checkVectorsAreThreadLocal(layouts[i], *s);
        checkVectorsAreThreadLocal(layouts[j], *s);
        EXPECT_EQ(worstWavefronts(layouts[i], *s, bits), 1u) << "stores conflict";
        EXPECT_EQ(worstWavefronts(layouts[j], *s, bits), 1u) << "loads conflict";
      }
}

TEST(ConversionScratch, BroadcastSourceAndDestination) {
  // A 16-element tensor on 128 threads: most lanes and warps hold copies.
  LL a = blocked({1}, {32}, {4}, {0}, {16});
  LL b = blocked({2}, {32}, {4}, {0}, {16});
  checkCase({"broadcast", a, b, 32, 0, 1});
}

TEST(ConversionScratch, RejectsDifferentShapes) {
  llvm::Expected<ConversionScratch> s = conversionScratch(
      blocked({1}, {32}, {4}, {0}, {128}), blocked({1}, {32}, {4}, {0}, {256}), 32);
  ASSERT_FALSE(bool(s));
  EXPECT_NE(llvm::toString(s.takeError()).find("different tensor shapes"), std::string::npos);
}

} // namespace
