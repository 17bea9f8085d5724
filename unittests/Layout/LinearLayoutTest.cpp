//===- LinearLayoutTest.cpp - the linear layout algebra -------------------===//
//
// Fixed examples (several are Triton's own expectations) and, for every
// operation, a check against enumeration on seeded random layouts.
//
//===----------------------------------------------------------------------===//
#include "LayoutTestUtil.h"

#include "kiln/Layout/BitMatrix.h"
#include "kiln/Layout/LinearLayout.h"

#include "llvm/Support/MathExtras.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace kiln::layout;
using namespace kiln::layout::test;
using LL = LinearLayout;

namespace {

const std::vector<std::string> kHw = {"register", "lane", "warp", "block"};

// The flat output index of coordinates, first output minor.
uint64_t flatOut(const LL &ll, llvm::ArrayRef<int32_t> coords) {
  uint64_t flat = 0, scale = 1;
  for (auto [c, o] : llvm::zip(coords, ll.getOutDims())) {
    flat += uint64_t(c) * scale;
    scale *= o.size;
  }
  return flat;
}

std::set<uint64_t> image(const LL &ll) {
  std::set<uint64_t> seen;
  forEachInput(ll, [&](llvm::ArrayRef<int32_t> x) { seen.insert(flatOut(ll, ll.apply(x))); });
  return seen;
}

// Named form of an input, for layouts that index by name.
llvm::SmallVector<std::pair<llvm::StringRef, int32_t>> named(const LL &ll,
                                                             llvm::ArrayRef<int32_t> values) {
  llvm::SmallVector<std::pair<llvm::StringRef, int32_t>> out;
  for (auto [in, v] : llvm::zip(ll.getInDims(), values))
    out.push_back({in.name, v});
  return out;
}

// `outer` applied to `ll`'s output coordinates, by name.
llvm::SmallVector<int32_t> applyTo(const LL &outer, const LL &ll, llvm::ArrayRef<int32_t> coords) {
  llvm::SmallVector<std::pair<llvm::StringRef, int32_t>> in;
  for (auto [o, c] : llvm::zip(ll.getOutDims(), coords))
    in.push_back({o.name, c});
  llvm::SmallVector<int32_t> out;
  for (auto &[name, c] : outer.apply(in))
    out.push_back(c);
  return out;
}

TEST(LinearLayout, OneDimensionalBuilders) {
  EXPECT_EQ(LL::identity1D(32, "in", "out"), LL({{"in", {{1}, {2}, {4}, {8}, {16}}}}, {"out"}));
  EXPECT_EQ(LL::identity1D(1, "in", "out"), LL({{"in", {}}}, {"out"}));
  EXPECT_EQ(LL::identity1D(0, "in", "out"), LL());
  EXPECT_EQ(LL::zeros1D(8, "in", "out"), LL({{"in", {{0}, {0}, {0}}}}, {"out"}));
  EXPECT_EQ(LL::strided1D(4, 2, "in", "out"), LL({{"in", {{2}, {4}}}}, {"out"}));
  EXPECT_EQ(LL::identity1D(8, "in", "out").getOutDimSize("out"), 8);
}

TEST(LinearLayout, ProductExamples) {
  // Triton's expectations for operator*.
  EXPECT_EQ(LL::identity1D(16, "in", "out") * LL::identity1D(32, "in", "out"),
            LL::identity1D(512, "in", "out"));
  EXPECT_EQ(LL::identity1D(32, "in1", "out1") * LL::identity1D(16, "in2", "out2"),
            LL({{"in1", {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}},
                {"in2", {{0, 1}, {0, 2}, {0, 4}, {0, 8}}}},
               {"out1", "out2"}));
  EXPECT_EQ(LL::identity1D(8, "in", "out") * LL::zeros1D(16, "in", "out"),
            LL({{"in", {{1}, {2}, {4}, {0}, {0}, {0}, {0}}}}, {"out"}));
  EXPECT_EQ(LL::identity1D(4, "in", "out1") * LL::identity1D(8, "in", "out2"),
            LL({{"in", {{1, 0}, {2, 0}, {0, 1}, {0, 2}, {0, 4}}}}, {"out1", "out2"}));
  EXPECT_EQ(LL() * LL::identity1D(32, "in", "out"), LL::identity1D(32, "in", "out"));
  // Dimension lists merge, keeping the first layout's order first.
  LL merged = LL::identity1D(2, "a", "x") * LL::identity1D(2, "c", "x") *
              (LL::identity1D(2, "b", "x") * LL::identity1D(2, "c", "x"));
  EXPECT_EQ(merged.getInDimNames(), (llvm::SmallVector<llvm::StringRef>{"a", "b", "c"}));
}

TEST(LinearLayout, ProductByEnumeration) {
  std::mt19937 rng(1);
  for (int trial = 0; trial < 200; ++trial) {
    LL inner = randomLayout(rng, {"register", "lane"}, 2);
    LL outer = randomLayout(rng, {"lane", "warp"}, 2);
    LL prod = inner * outer;
    ASSERT_EQ(prod.getInDimNames(),
              (llvm::SmallVector<llvm::StringRef>{"register", "lane", "warp"}));
    forEachInput(prod, [&](llvm::ArrayRef<int32_t> x) {
      // The inner layout gets the low bits of each shared input.
      unsigned innerLane = inner.getInDimSizeLog2("lane");
      llvm::SmallVector<int32_t> a = inner.apply({x[0], x[1] & ((1 << innerLane) - 1)});
      llvm::SmallVector<int32_t> b = outer.apply({x[1] >> innerLane, x[2]});
      llvm::SmallVector<int32_t> got = prod.apply(x);
      for (unsigned k = 0; k < 2; ++k)
        ASSERT_EQ(got[k], a[k] | (b[k] << inner.getOutDimSizeLog2(dimName(k))));
    });
  }
}

TEST(LinearLayout, ComposeExample) {
  // Triton's expectation.
  LL l1({{"in1", {{1, 1}, {0, 1}}}, {"in2", {{1, 0}, {1, 2}}}}, {"out1", "out2"});
  LL l2({{"out1", {{2, 2}, {1, 0}}}, {"out2", {{1, 1}, {2, 1}}}}, {"out3", "out4"});
  LL c = l1.compose(l2);
  EXPECT_EQ(c, LL({{"in1", {{3, 3}, {1, 1}}}, {"in2", {{2, 2}, {0, 3}}}},
                  {{"out3", 4}, {"out4", 4}}, false));
  EXPECT_FALSE(c.isSurjective());
}

TEST(LinearLayout, ComposeByEnumeration) {
  std::mt19937 rng(2);
  for (int trial = 0; trial < 200; ++trial) {
    LL inner = randomLayout(rng, {"register", "lane"}, 2);
    // A random map whose inputs are inner's outputs, sizes at least as large.
    std::vector<LL::InDim> ins;
    for (const LL::DimSize &o : inner.getOutDims())
      ins.push_back({o.name, {}});
    LL shape = randomLayout(rng, {"x"}, 3);
    for (LL::InDim &in : ins)
      for (int32_t s = 1; s < inner.getOutDimSize(in.name) * 2; s *= 2) {
        LL::Basis b;
        for (const LL::DimSize &o : shape.getOutDims())
          b.push_back(int32_t(rng() % o.size));
        in.bases.push_back(b);
      }
    LL outer(std::move(ins),
             std::vector<LL::DimSize>(shape.getOutDims().begin(), shape.getOutDims().end()), false);
    LL c = inner.compose(outer);
    forEachInput(inner, [&](llvm::ArrayRef<int32_t> x) {
      ASSERT_EQ(c.apply(x), applyTo(outer, inner, inner.apply(x)));
    });
  }
}

TEST(LinearLayout, InvertAndComposeExamples) {
  // Triton's expectations.
  LL l1({{"in1", {{2}, {1}, {4}}}}, {"out"});
  EXPECT_EQ(*l1.invertAndCompose(LL({{"in2", {{4}, {1}, {2}}}}, {"out"})),
            LL({{"in1", {{4}, {2}, {1}}}}, {"in2"}));
  EXPECT_EQ(*l1.invertAndCompose(LL({{"in2", {{0}, {2}, {1}, {4}}}}, {"out"})),
            LL({{"in1", {{2}, {4}, {8}}}}, {{"in2", 16}}, false));
  LL id({{"in", {{1}, {2}, {4}}}}, {"out"});
  EXPECT_EQ(*id.invertAndCompose(LL({{"in", {{0}, {4}, {1}, {2}}}}, {"out"})),
            LL({{"in", {{4}, {8}, {2}}}}, {{"in", 16}}, false));
  // Broadcast inputs of different names map to 0.
  LL a({{"in1", {{1}, {2}, {4}}}, {"in2", {{0}}}}, {"out"});
  LL b({{"in3", {{1}, {2}, {4}}}, {"in4", {{0}}}}, {"out"});
  EXPECT_EQ(*a.invertAndCompose(b), LL({{"in1", {{1, 0}, {2, 0}, {4, 0}}}, {"in2", {{0, 0}}}},
                                       {{"in3", 8}, {"in4", 2}}, false));
}

TEST(LinearLayout, InvertAndComposeKeepsSharedBitsInPlace) {
  // The same element at the same bit, broadcast bits included, stays put:
  // converting a layout to itself moves nothing.
  LL l({{"register", {{1, 0}, {0, 0}}}, {"lane", {{2, 0}, {0, 1}}}, {"block", {{0, 0}}}},
       {"dim0", "dim1"});
  LL c = *l.invertAndCompose(l);
  EXPECT_EQ(c, LL({{"register", {{1, 0, 0}, {2, 0, 0}}},
                   {"lane", {{0, 1, 0}, {0, 2, 0}}},
                   {"block", {{0, 0, 1}}}},
                  {{"register", 4}, {"lane", 4}, {"block", 2}}, false));
}

TEST(LinearLayout, InvertAndComposeByEnumeration) {
  std::mt19937 rng(3);
  for (int trial = 0; trial < 300; ++trial) {
    LL outer = randomLayout(rng, kHw, 2);
    LL self = randomLayout(rng, {"register", "lane", "offset"}, 2);
    // Same outputs: give self outer's output sizes.
    std::vector<LL::InDim> ins(self.getInDims().begin(), self.getInDims().end());
    for (LL::InDim &in : ins)
      for (LL::Basis &b : in.bases)
        for (auto [c, o] : llvm::zip(b, outer.getOutDims()))
          c %= o.size;
    self =
        LL(std::move(ins),
           std::vector<LL::DimSize>(outer.getOutDims().begin(), outer.getOutDims().end()), false);
    std::set<uint64_t> have = image(outer), need = image(self);
    bool covered = std::includes(have.begin(), have.end(), need.begin(), need.end());
    std::optional<LL> c = self.invertAndCompose(outer);
    ASSERT_EQ(c.has_value(), covered) << self.toString() << outer.toString();
    if (!c)
      continue;
    forEachInput(self, [&](llvm::ArrayRef<int32_t> x) {
      ASSERT_EQ(outer.apply(c->apply(x)), self.apply(x));
    });
  }
}

TEST(LinearLayout, InvertByEnumeration) {
  std::mt19937 rng(4);
  for (int trial = 0; trial < 200; ++trial) {
    LL l = randomBijection(rng, kHw, 3);
    std::optional<LL> inv = l.invert();
    ASSERT_TRUE(inv.has_value()) << l.toString();
    forEachInput(l, [&](llvm::ArrayRef<int32_t> x) {
      ASSERT_EQ(applyTo(*inv, l, l.apply(x)), llvm::SmallVector<int32_t>(x));
    });
    forEachInput(*inv, [&](llvm::ArrayRef<int32_t> y) {
      ASSERT_EQ(applyTo(l, *inv, inv->apply(y)), llvm::SmallVector<int32_t>(y));
    });
  }
  EXPECT_FALSE(LL::zeros1D(4, "in", "out").invert().has_value());
  EXPECT_FALSE(LL({{"in", {{1}}}}, {{"out", 4}}, false).invert().has_value());
}

TEST(LinearLayout, PseudoinverseByEnumeration) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    LL l = randomLayout(rng, kHw, 2);
    LL p = l.pseudoinvert();
    forEachInput(l, [&](llvm::ArrayRef<int32_t> x) {
      llvm::SmallVector<int32_t> y = l.apply(x);
      ASSERT_EQ(applyTo(l, p, p.apply(y)), y);
      if (l.isInjective())
        ASSERT_EQ(applyTo(p, l, y), llvm::SmallVector<int32_t>(x));
    });
    if (l.isSurjective())
      forEachInput(p, [&](llvm::ArrayRef<int32_t> y) {
        ASSERT_EQ(applyTo(l, p, p.apply(y)), llvm::SmallVector<int32_t>(y));
      });
  }
}

TEST(LinearLayout, TransposeAndReshapeExamples) {
  // Triton's expectations.
  LL two = LL::identity1D(32, "in1", "out1") * LL::identity1D(16, "in2", "out2");
  EXPECT_EQ(two.transposeOuts({"out2", "out1"}),
            LL({{"in1", {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}}},
                {"in2", {{1, 0}, {2, 0}, {4, 0}, {8, 0}}}},
               {"out2", "out1"}));
  EXPECT_EQ(two.transposeIns({"in2", "in1"}),
            LL({{"in2", {{0, 1}, {0, 2}, {0, 4}, {0, 8}}},
                {"in1", {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}}},
               {"out1", "out2"}));
  LL ll({{"in1", {{1}, {4}, {8}}}, {"in2", {{2}}}}, {"out"});
  EXPECT_EQ(ll.reshapeIns({{"in3", 2}, {"in4", 8}}),
            LL({{"in3", {{1}}}, {"in4", {{4}, {8}, {2}}}}, {"out"}));
  EXPECT_EQ(ll.flattenIns(), LL({{"in1", {{1}, {4}, {8}, {2}}}}, {"out"}));
  LL outs({{"in1", {{1}, {4}, {8}}}, {"in2", {{3}}}}, {"out"});
  EXPECT_EQ(outs.reshapeOuts({{"out2", 2}, {"out3", 8}}),
            LL({{"in1", {{1, 0}, {0, 2}, {0, 4}}}, {"in2", {{1, 1}}}}, {"out2", "out3"}));
  LL wide({{"in1", {{1, 0}, {4, 1}, {8, 4}}}, {"in2", {{3, 2}}}}, {{"out1", 16}, {"out2", 8}},
          false);
  EXPECT_EQ(wide.flattenOuts(),
            LL({{"in1", {{1}, {4 + 16}, {8 + 4 * 16}}}, {"in2", {{3 + 2 * 16}}}}, {{"out1", 128}},
               false));
}

TEST(LinearLayout, TransposeAndReshapeByEnumeration) {
  std::mt19937 rng(6);
  for (int trial = 0; trial < 200; ++trial) {
    LL l = randomLayout(rng, {"register", "lane", "warp"}, 3);
    LL outsT = l.transposeOuts({"dim2", "dim0", "dim1"});
    LL insT = l.transposeIns({"warp", "register", "lane"});
    LL flatOuts = l.flattenOuts();
    unsigned total = l.getTotalInDimSizeLog2(), cut = total / 2;
    LL split = l.reshapeIns({{"lo", int32_t(1) << cut}, {"hi", int32_t(1) << (total - cut)}});
    forEachInput(l, [&](llvm::ArrayRef<int32_t> x) {
      llvm::SmallVector<int32_t> y = l.apply(x);
      ASSERT_EQ(outsT.apply(x), (llvm::SmallVector<int32_t>{y[2], y[0], y[1]}));
      ASSERT_EQ(insT.apply({x[2], x[0], x[1]}), y);
      ASSERT_EQ(uint64_t(flatOuts.apply(x)[0]), flatOut(l, y));
      // The flat input, re-split at `cut`.
      uint64_t flat = uint64_t(x[0]) | uint64_t(x[1]) << l.getInDimSizeLog2("register") |
                      uint64_t(x[2])
                          << (l.getInDimSizeLog2("register") + l.getInDimSizeLog2("lane"));
      ASSERT_EQ(split.apply({int32_t(flat & ((1u << cut) - 1)), int32_t(flat >> cut)}), y);
    });
  }
}

TEST(LinearLayout, SublayoutAndZeroTests) {
  // Triton's expectations.
  LL l1({{"in1", {{1, 0}, {0, 1}, {2, 0}}}, {"in2", {{0, 1}}}}, {"out1", "out2"});
  EXPECT_EQ(l1.sublayout({"in1", "in2"}, {"out1"}),
            LL({{"in1", {{1}, {0}, {2}}}, {"in2", {{0}}}}, {"out1"}));
  EXPECT_EQ(l1.sublayout({"in2", "in1"}, {"out2", "out1"}), l1);
  EXPECT_EQ(l1.sublayout({}, {}), LL());
  EXPECT_EQ(l1.sublayout({}, {"out1"}), LL({}, {{"out1", 4}}, false));
  LL l2({{"in1", {{0, 1}, {0, 2}}}, {"in2", {{1, 1}}}}, {"out1", "out2"});
  EXPECT_TRUE(l2.sublayoutIsZero({"in1"}, {"out1"}));
  EXPECT_FALSE(l2.sublayoutIsZero({"in1"}, {"out2"}));
  EXPECT_FALSE(l2.sublayoutIsZero({"in2"}, {"out1"}));
}

TEST(LinearLayout, FreeVariableMasks) {
  // Triton's expectations.
  EXPECT_EQ(LL::identity1D(4, "in", "out").getFreeVariableMask("in"), 0u);
  EXPECT_EQ(LL::zeros1D(16, "in", "out").getFreeVariableMask("in"), 0b1111u);
  LL mixed = LL::identity1D(2, "in", "out") * LL::zeros1D(4, "in", "out") *
             LL::identity1D(4, "in", "out") * LL::zeros1D(2, "in", "out");
  EXPECT_EQ(mixed.getFreeVariableMask("in"), 0b100110u);
  LL two({{"in1", {{1, 1}, {2, 2}, {0, 0}}}, {"in2", {{1, 0}, {0, 1}, {2, 0}}}}, {"out1", "out2"});
  EXPECT_EQ(two.getFreeVariableMasks(), (llvm::SmallVector<uint64_t>{0b100, 0b10}));
}

TEST(LinearLayout, FreeVariablesByEnumeration) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    LL l = randomLayout(rng, kHw, 2);
    // Column i is free iff some XOR of the columns before it equals it.
    std::vector<uint64_t> cols;
    for (const LL::InDim &in : l.getInDims())
      for (const LL::Basis &b : in.bases)
        cols.push_back(flatOut(l, b));
    uint64_t expected = 0;
    for (size_t i = 0; i < cols.size(); ++i)
      for (uint64_t subset = 0; subset < (uint64_t(1) << i); ++subset) {
        uint64_t x = 0;
        for (size_t j = 0; j < i; ++j)
          if (subset & (uint64_t(1) << j))
            x ^= cols[j];
        if (x == cols[i]) {
          expected |= uint64_t(1) << i;
          break;
        }
      }
    uint64_t got = 0;
    unsigned shift = 0;
    for (auto [mask, in] : llvm::zip(l.getFreeVariableMasks(), l.getInDims())) {
      got |= mask << shift;
      shift += in.bases.size();
    }
    ASSERT_EQ(got, expected) << l.toString();
    ASSERT_EQ(l.rank(), cols.size() - llvm::popcount(expected));
  }
}

TEST(LinearLayout, NumConsecutiveInOut) {
  // Triton's expectations.
  auto consec = [](const LL &l) {
    return l.getNumConsecutiveInOut(l.getInDims().front().name, l.getOutDims().front().name);
  };
  EXPECT_EQ(consec(LL::identity1D(1, "in", "out")), 1);
  EXPECT_EQ(consec(LL::identity1D(4, "in", "out")), 4);
  EXPECT_EQ(consec(LL::identity1D(4, "in1", "out") * LL::identity1D(8, "in2", "out")), 4);
  EXPECT_EQ(consec(LL::identity1D(4, "in", "out1") * LL::identity1D(8, "in", "out2")), 4);
  EXPECT_EQ(consec(LL::zeros1D(4, "in", "out1") * LL::identity1D(4, "in", "out2")), 1);
  EXPECT_EQ(consec(LL({{"in", {{1}, {2}, {4}, {9}}}}, {"out"})), 1);
  EXPECT_EQ(consec(LL({{"in", {{1}, {2}, {4}, {10}}}}, {"out"})), 2);
  EXPECT_EQ(consec(LL({{"in", {{1}, {4}, {2}}}}, {"out"})), 2);
  EXPECT_EQ(consec(LL({{"in", {{1}, {2}, {4}}}, {"in2", {{8}, {18}}}}, {"out"})), 2);
}

TEST(LinearLayout, NumConsecutiveByEnumeration) {
  // V is the largest power of two with L(a*V + v, rest) = L(a*V, rest) + v
  // along the output, for every v < V and every other input.
  std::mt19937 rng(8);
  auto holds = [](const LL &l, int32_t v) {
    bool ok = true;
    forEachInput(l, [&](llvm::ArrayRef<int32_t> x) {
      llvm::SmallVector<int32_t> base(x);
      base[0] = x[0] / v * v;
      llvm::SmallVector<int32_t> got = l.apply(x), expect = l.apply(base);
      expect[0] += x[0] % v;
      ok = ok && got == expect;
    });
    return ok;
  };
  for (int trial = 0; trial < 300; ++trial) {
    LL l = randomLayout(rng, {"register", "lane"}, 2);
    if (trial % 2) // often start with a run of unit bases
      l = LL::identity1D(int32_t(1) << (trial % 3), "register", "dim0") * l;
    int32_t v = l.getNumConsecutiveInOut("register", "dim0");
    ASSERT_TRUE(holds(l, v)) << l.toString();
    if (2 * v <= l.getInDimSize("register"))
      ASSERT_FALSE(holds(l, 2 * v)) << l.toString();
  }
}

TEST(LinearLayout, Quotient) {
  // Triton's expectations.
  LL one({{"dim1", {{1, 0}}}, {"dim2", {{0, 0}}}}, {{"dim1", 2}, {"dim2", 1}}, false);
  std::optional<LL> q = one.quotient({"dim1"});
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(*q, LL::zeros1D(2, "dim2", "dim2"));
  EXPECT_FALSE(q->quotient({"dim2"}).has_value());
  LL funny({{"dim1", {{1, 0, 2}, {2, 0, 1}}},
            {"dim2", {{0, 1, 0}, {0, 2, 0}, {0, 4, 0}}},
            {"dim3", {{0, 0, 1}, {0, 0, 2}}}},
           {"dim1", "dim2", "dim3"});
  EXPECT_TRUE(funny.quotient({"dim2"}).has_value());
  LL tangled({{"dim1", {{1, 0, 2}, {2, 0, 1}}},
              {"dim2", {{0, 1, 0}, {0, 2, 0}, {0, 4, 0}}},
              {"dim3", {{0, 1, 1}, {0, 0, 2}}}},
             {"dim1", "dim2", "dim3"});
  EXPECT_FALSE(tangled.quotient({"dim2"}).has_value());
  EXPECT_FALSE(LL().quotient({"dim1"}).has_value());
}

TEST(LinearLayout, DivideByEnumeration) {
  std::mt19937 rng(9);
  for (int trial = 0; trial < 200; ++trial) {
    LL b = randomLayout(rng, {"register", "lane"}, 2);
    LL c = randomLayout(rng, {"register", "lane"}, 2);
    EXPECT_EQ(divideLeft(b * c, b), c) << (b * c).toString() << b.toString();
    EXPECT_EQ(divideRight(c * b, b), c) << (c * b).toString() << b.toString();
  }
  // A tile must be the low bits: [1, 2] divides [1, 2, 4], [2, 1] does not.
  LL a = LL::identity1D(8, "register", "dim0");
  EXPECT_EQ(divideLeft(a, LL::identity1D(2, "register", "dim0")),
            LL::identity1D(4, "register", "dim0"));
  EXPECT_FALSE(divideLeft(a, LL({{"register", {{2}, {1}}}}, {"dim0"})).has_value());
  EXPECT_FALSE(divideLeft(a, LL::identity1D(2, "lane", "dim0")).has_value());
}

TEST(LinearLayout, EqualityAndPrinting) {
  EXPECT_NE(LL::identity1D(4, "in", "out"), LL({{"in", {{1}, {2}}}}, {{"out", 8}}, false));
  EXPECT_NE(LL::identity1D(4, "a", "out") * LL::identity1D(1, "b", "out"),
            LL::identity1D(1, "b", "out") * LL::identity1D(4, "a", "out"));
  LL l({{"register", {{0, 1}, {2, 0}}}, {"lane", {}}}, {"dim0", "dim1"});
  EXPECT_EQ(l.toString(), "\n - register=1 -> (0, 1)\n   register=2 -> (2, 0)\n"
                          " - lane is a size 1 dimension\n"
                          "where out dims are: [dim0 (size 4), dim1 (size 2)]");
  EXPECT_EQ(LL().toString(), "\n(empty layout)");
}

TEST(LinearLayout, CreateRejectsBadData) {
  auto message = [](llvm::Expected<LL> ll) {
    return ll ? std::string("ok") : llvm::toString(ll.takeError());
  };
  EXPECT_EQ(message(LL::create({{"in", {{-1}}}}, {"out"})),
            "basis 0 of 'in' has coordinate -1 outside 'out' (size 1)");
  EXPECT_EQ(message(LL::create({{"in", {{1, 0}}}}, {"out"})),
            "basis 0 of 'in' has 2 coordinates for 1 output dimensions");
  EXPECT_EQ(message(LL::create({{"in", {{4}}}}, {{"out", 4}}, false)),
            "basis 0 of 'in' has coordinate 4 outside 'out' (size 4)");
  EXPECT_EQ(message(LL::create({{"in", {}}, {"in", {}}}, {"out"})),
            "input dimension 'in' appears twice");
  EXPECT_EQ(message(LL::create({}, {{"out", 3}}, false)),
            "output dimension 'out' has size 3, not a power of two from 1 to 2^30");
  EXPECT_EQ(message(LL::create({{"in", {{1}}}}, {{"out", 4}}, true)).substr(0, 40),
            "the layout does not reach every output e");
  EXPECT_EQ(message(LL::create({{"in", {{1}, {2}}}}, {"out"})), "ok");
}

TEST(BitMatrix, EliminationByEnumeration) {
  std::mt19937_64 rng(10);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<uint64_t> cols;
    for (int i = 0, n = rng() % 9; i < n; ++i)
      cols.push_back(rng() & 0x3f & (rng() | rng()));
    XorBasis basis;
    std::vector<uint64_t> accepted;
    for (uint64_t c : cols)
      if (basis.insert(c))
        accepted.push_back(c);
    std::set<uint64_t> span;
    for (uint64_t subset = 0; subset < (uint64_t(1) << accepted.size()); ++subset) {
      uint64_t x = 0;
      for (size_t j = 0; j < accepted.size(); ++j)
        if (subset & (uint64_t(1) << j))
          x ^= accepted[j];
      span.insert(x);
      std::optional<uint64_t> ids = basis.express(x);
      ASSERT_TRUE(ids.has_value());
      ASSERT_EQ(*ids, subset); // unique, since accepted vectors are independent
    }
    ASSERT_EQ(span.size(), size_t(1) << accepted.size()); // independent
    ASSERT_EQ(rankOf(cols), accepted.size());
    for (uint64_t v = 0; v < 64; ++v)
      ASSERT_EQ(basis.contains(v), span.count(v) == 1);
  }
}

} // namespace
