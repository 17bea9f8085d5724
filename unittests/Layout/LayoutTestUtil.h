//===- LayoutTestUtil.h - brute force for layout tests -----------*- C++ -*-===//
//
// Layout tests check the engine against enumeration: every input of a
// layout is visited and the property is checked value by value, with no use
// of the code under test beyond apply(). Random layouts come from a seeded
// generator, so failures reproduce.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_UNITTESTS_LAYOUT_LAYOUTTESTUTIL_H
#define KILN_UNITTESTS_LAYOUT_LAYOUTTESTUTIL_H

#include "kiln/Layout/LinearLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <ostream>
#include <random>

namespace kiln::layout {

// gtest prints layouts in Triton's form when an expectation fails.
inline void PrintTo(const LinearLayout &ll, std::ostream *os) { *os << ll.toString(); }

namespace test {

/// Calls `fn` with every input of `ll` (one value per input dimension).
inline void forEachInput(const LinearLayout &ll,
                         const std::function<void(llvm::ArrayRef<int32_t>)> &fn) {
  unsigned bits = ll.getTotalInDimSizeLog2();
  ASSERT_LE(bits, 22u) << "too large to enumerate";
  llvm::SmallVector<int32_t> values(ll.getNumInDims(), 0);
  for (uint64_t flat = 0; flat < (uint64_t(1) << bits); ++flat) {
    uint64_t rest = flat;
    for (auto [i, in] : llvm::enumerate(ll.getInDims())) {
      values[i] = int32_t(rest & ((uint64_t(1) << in.bases.size()) - 1));
      rest >>= in.bases.size();
    }
    fn(values);
  }
}

/// Row-major linear index of `coords` in `sizes`.
inline int64_t linearIndex(llvm::ArrayRef<int32_t> coords, llvm::ArrayRef<int64_t> sizes) {
  int64_t index = 0;
  for (auto [c, s] : llvm::zip(coords, sizes))
    index = index * s + c;
  return index;
}

inline llvm::SmallVector<int64_t> outSizes(const LinearLayout &ll) {
  llvm::SmallVector<int64_t> sizes;
  for (const LinearLayout::DimSize &o : ll.getOutDims())
    sizes.push_back(o.size);
  return sizes;
}

/// A random layout with inputs `inNames` (0 to 3 bits each) and outputs
/// dim0..dim<numOuts-1> (sizes 1 to 8); bases random inside the outputs.
inline LinearLayout randomLayout(std::mt19937 &rng, llvm::ArrayRef<std::string> inNames,
                                 unsigned numOuts) {
  std::uniform_int_distribution<int> bitsDist(0, 3);
  std::vector<LinearLayout::DimSize> outs;
  for (unsigned k = 0; k < numOuts; ++k)
    outs.push_back({dimName(k), int32_t(1) << bitsDist(rng)});
  std::vector<LinearLayout::InDim> ins;
  for (const std::string &name : inNames) {
    LinearLayout::InDim in{name, {}};
    for (int i = 0, e = bitsDist(rng); i < e; ++i) {
      LinearLayout::Basis b;
      for (const LinearLayout::DimSize &o : outs)
        b.push_back(std::uniform_int_distribution<int32_t>(0, o.size - 1)(rng));
      in.bases.push_back(b);
    }
    ins.push_back(std::move(in));
  }
  return LinearLayout(std::move(ins), std::move(outs), /*requireSurjective=*/false);
}

/// A random bijective layout: a permutation matrix mixed by random column
/// additions, which keep it invertible.
inline LinearLayout randomBijection(std::mt19937 &rng, llvm::ArrayRef<std::string> inNames,
                                    unsigned numOuts) {
  LinearLayout shape = randomLayout(rng, inNames, numOuts);
  unsigned bits = shape.getTotalInDimSizeLog2();
  // Give the outputs the same number of bits as the inputs.
  std::vector<LinearLayout::DimSize> outs;
  unsigned left = bits;
  for (unsigned k = 0; k < numOuts; ++k) {
    unsigned take = k + 1 == numOuts ? left : std::uniform_int_distribution<unsigned>(0, left)(rng);
    outs.push_back({dimName(k), int32_t(1) << take});
    left -= take;
  }
  std::vector<uint64_t> columns(bits);
  for (unsigned j = 0; j < bits; ++j)
    columns[j] = uint64_t(1) << j;
  std::shuffle(columns.begin(), columns.end(), rng);
  for (unsigned step = 0; bits > 1 && step < 3 * bits; ++step) {
    unsigned a = rng() % bits, b = rng() % bits;
    if (a != b)
      columns[a] ^= columns[b];
  }
  std::vector<LinearLayout::InDim> ins;
  unsigned next = 0;
  for (const LinearLayout::InDim &d : shape.getInDims()) {
    LinearLayout::InDim in{d.name, {}};
    for (size_t i = 0; i < d.bases.size(); ++i) {
      uint64_t flat = columns[next++];
      LinearLayout::Basis b;
      for (const LinearLayout::DimSize &o : outs) {
        b.push_back(int32_t(flat & uint64_t(o.size - 1)));
        flat >>= llvm::Log2_32(o.size);
      }
      in.bases.push_back(b);
    }
    ins.push_back(std::move(in));
  }
  return LinearLayout(std::move(ins), std::move(outs), /*requireSurjective=*/true);
}

} // namespace test
} // namespace kiln::layout

#endif // KILN_UNITTESTS_LAYOUT_LAYOUTTESTUTIL_H
