//===- BitMatrix.cpp - Gaussian elimination over GF(2) ---------------------===//
#include "kiln/Layout/BitMatrix.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

namespace kiln::layout {

namespace {
// Reduces `v` (with combination `mask`) by the echelon rows, highest bit
// first; each step clears the leading bit, so this ends in at most 64 steps.
void reduce(const std::array<uint64_t, 64> &reduced, const std::array<uint64_t, 64> &combo,
            uint64_t &v, uint64_t &mask) {
  while (v) {
    unsigned lead = llvm::Log2_64(v);
    if (!reduced[lead])
      return;
    v ^= reduced[lead];
    mask ^= combo[lead];
  }
}
} // namespace

bool XorBasis::insert(uint64_t v) {
  if (numAccepted == 64)
    return false; // 64 independent vectors span everything
  uint64_t mask = uint64_t(1) << numAccepted;
  reduce(reduced, combo, v, mask);
  if (!v)
    return false;
  unsigned lead = llvm::Log2_64(v);
  reduced[lead] = v;
  combo[lead] = mask;
  ++numAccepted;
  return true;
}

std::optional<uint64_t> XorBasis::express(uint64_t v) const {
  uint64_t mask = 0;
  reduce(reduced, combo, v, mask);
  if (v)
    return std::nullopt;
  return mask;
}

unsigned rankOf(llvm::ArrayRef<uint64_t> columns) {
  XorBasis basis;
  for (uint64_t c : columns)
    basis.insert(c);
  return basis.rank();
}

uint64_t freeColumns(llvm::ArrayRef<uint64_t> columns) {
  if (columns.size() > 64)
    llvm::report_fatal_error("kiln layout: freeColumns takes at most 64 columns");
  XorBasis basis;
  uint64_t free = 0;
  for (auto [i, c] : llvm::enumerate(columns))
    if (!basis.insert(c))
      free |= uint64_t(1) << i;
  return free;
}

} // namespace kiln::layout
