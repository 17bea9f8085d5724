//===- DotPlan.cpp - registers feeding mma.sync and FMA products ----------===//
//
// Both planners work on coordinates: the lane and warp bases of A, B and C
// must split the product the way the instruction needs (checked basis by
// basis), after which every register an instruction reads is found by
// looking its coordinate up among the operand's registers.
//
//===----------------------------------------------------------------------===//
#include "kiln/Analysis/DotPlan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <map>
#include <set>

namespace kiln::layout {

using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

using Coord = std::vector<int32_t>;

/// L(inputs) as one coordinate per output, in output order.
Coord point(const LinearLayout &ll, ArrayRef<std::pair<llvm::StringRef, int32_t>> inputs) {
  Coord c;
  for (const auto &[name, value] : ll.apply(inputs))
    c.push_back(value);
  return c;
}

std::string show(ArrayRef<int32_t> c) {
  std::string s = "(";
  for (auto [i, v] : llvm::enumerate(c))
    s += (i ? ", " : "") + std::to_string(v);
  return s + ")";
}

/// Where each element sits in a thread's registers (the first register
/// holding it), from the register bases alone.
class RegisterIndex {
public:
  explicit RegisterIndex(const LinearLayout &ll) {
    for (int32_t r = 0, e = ll.getInDimSize(kRegister); r < e; ++r) {
      first.emplace(point(ll, {{kRegister, r}}), r);
    }
  }
  std::optional<int32_t> lookup(const Coord &c) const {
    auto it = first.find(c);
    if (it == first.end())
      return std::nullopt;
    return it->second;
  }
  SmallVector<int32_t> copies(const LinearLayout &ll) const {
    SmallVector<int32_t> result;
    for (int32_t r = 0, e = ll.getInDimSize(kRegister); r < e; ++r) {
      result.push_back(first.at(point(ll, {{kRegister, r}})));
    }
    return result;
  }

private:
  std::map<Coord, int32_t> first;
};

Coord basis(const LinearLayout &ll, llvm::StringRef in, unsigned i) {
  ArrayRef<int32_t> b = ll.getBasis(in, i);
  return Coord(b.begin(), b.end());
}

/// Only dimension `d` of `c` is nonzero.
bool onlyAlong(const Coord &c, unsigned d) {
  for (auto [i, v] : llvm::enumerate(c))
    if (i != d && v != 0)
      return false;
  return c[d] != 0;
}

struct Dims {
  unsigned rank, m, n, k; // m, n in C; A is (.., m, k), B (.., k, n)
};

/// Warps and CTAs: each must hold the same rows of A and C, the same
/// columns of B and C and no K offset (the instruction, or the thread,
/// runs over all of K).
llvm::Error checkSplit(const LinearLayout &a, const LinearLayout &b, const LinearLayout &c,
                       const Dims &d, llvm::StringRef in) {
  unsigned bits = c.getInDimSizeLog2(in);
  if (a.getInDimSizeLog2(in) != bits || b.getInDimSizeLog2(in) != bits)
    return error("the operands of the dot are spread over a different number of " + in + "s");
  for (unsigned i = 0; i < bits; ++i) {
    Coord ba = basis(a, in, i), bb = basis(b, in, i), bc = basis(c, in, i);
    bool ok = ba[d.rank - 1] == 0 && bb[d.rank - 2] == 0 && bc[d.m] == ba[d.m] &&
              bc[d.n] == bb[d.n];
    for (unsigned x = 0; x + 2 < d.rank; ++x)
      ok = ok && ba[x] == bc[x] && bb[x] == bc[x];
    if (!ok)
      return error(in + " bit " + llvm::Twine(i) + " moves A by " + show(ba) + ", B by " +
                   show(bb) + " and C by " + show(bc) +
                   ": it must move A and C along the same rows, B and C along the same "
                   "columns, and neither operand along K");
  }
  return llvm::Error::success();
}

llvm::Error checkRanks(const LinearLayout &a, const LinearLayout &b, const LinearLayout &c) {
  unsigned rank = c.getNumOutDims();
  if (rank < 2 || a.getNumOutDims() != rank || b.getNumOutDims() != rank)
    return error("a dot needs A, B and C of the same rank, 2 or more");
  for (const LinearLayout *ll : {&a, &b, &c})
    for (llvm::StringRef in : {kRegister, kLane, kWarp, kBlock})
      if (!ll->hasInDim(in))
        return error("a dot operand's layout lacks the '" + in + "' input");
  return llvm::Error::success();
}

/// All XOR combinations of `bases`, the first basis the fastest.
std::vector<Coord> span(ArrayRef<Coord> bases, unsigned rank) {
  std::vector<Coord> all(size_t(1) << bases.size(), Coord(rank, 0));
  for (size_t s = 0; s < all.size(); ++s)
    for (size_t j = 0; j < bases.size(); ++j)
      if (s >> j & 1)
        for (unsigned x = 0; x < rank; ++x)
          all[s][x] ^= bases[j][x];
  return all;
}

} // namespace

LinearLayout mmaV2Fragment(MmaOperand operand, unsigned bitWidth) {
  // p elements per 32-bit register; the instruction's K is 8p.
  int32_t p = 32 / int32_t(bitWidth);
  std::vector<LinearLayout::Basis> slot, lane;
  auto rc = [](int32_t row, int32_t col) { return LinearLayout::Basis{row, col}; };
  switch (operand) {
  case MmaOperand::A: // 16 x 8p: rows g (+8), K p*t + e (+4p)
    for (int32_t e = 1; e < p; e *= 2)
      slot.push_back(rc(0, e));
    slot.push_back(rc(8, 0));
    slot.push_back(rc(0, 4 * p));
    lane = {rc(0, p), rc(0, 2 * p), rc(1, 0), rc(2, 0), rc(4, 0)};
    break;
  case MmaOperand::B: // 8p x 8: K p*t + e (+4p), columns g
    for (int32_t e = 1; e < p; e *= 2)
      slot.push_back(rc(e, 0));
    slot.push_back(rc(4 * p, 0));
    lane = {rc(p, 0), rc(2 * p, 0), rc(0, 1), rc(0, 2), rc(0, 4)};
    break;
  case MmaOperand::C: // 16 x 8: rows g (+8), columns 2t (+1)
    slot = {rc(0, 1), rc(8, 0)};
    lane = {rc(0, 2), rc(0, 4), rc(1, 0), rc(2, 0), rc(4, 0)};
    break;
  }
  return LinearLayout({{"slot", slot}, {std::string(kLane), lane}}, {dimName(0), dimName(1)});
}

llvm::Expected<MmaV2Plan> planMmaV2(const LinearLayout &a, const LinearLayout &b,
                                    const LinearLayout &c, unsigned bitWidth) {
  if (llvm::Error e = checkRanks(a, b, c))
    return e;
  if (bitWidth != 8 && bitWidth != 16 && bitWidth != 32)
    return error("mma.sync takes 8, 16 or 32-bit operands, not " + llvm::Twine(bitWidth));
  unsigned rank = c.getNumOutDims();
  Dims d{rank, rank - 2, rank - 1, 0};
  LinearLayout fa = mmaV2Fragment(MmaOperand::A, bitWidth);
  LinearLayout fb = mmaV2Fragment(MmaOperand::B, bitWidth);
  LinearLayout fc = mmaV2Fragment(MmaOperand::C, bitWidth);
  for (const LinearLayout *ll : {&a, &b, &c})
    if (ll->getInDimSizeLog2(kLane) != 5)
      return error("mma.sync needs layouts over 32 lanes");

  // The instruction's K (hardware bit j, value 2^j) is the tensor's K
  // offset perm[j]: lanes fix some bits, registers the others.
  unsigned hwKBits = llvm::Log2_32(fa.getOutDimSize(dimName(1)));
  SmallVector<int32_t> perm(hwKBits, 0);
  std::set<int32_t> spanK = {0};
  auto addToSpan = [&](int32_t k) {
    std::set<int32_t> more;
    for (int32_t s : spanK)
      more.insert(s ^ k);
    spanK.insert(more.begin(), more.end());
  };
  auto offByLane = [&](char which, unsigned i, const Coord &got, const Coord &want) {
    return error(llvm::Twine("lane bit ") + llvm::Twine(i) + " moves " + llvm::Twine(which) +
                 " by " + show(got) + "; mma.sync's fragment needs " + show(want));
  };
  for (unsigned i = 0; i < 5; ++i) {
    ArrayRef<int32_t> ha = fa.getBasis(kLane, i), hb = fb.getBasis(kLane, i),
                      hc = fc.getBasis(kLane, i);
    Coord la = basis(a, kLane, i), lb = basis(b, kLane, i), lc = basis(c, kLane, i);
    Coord wantA(rank, 0), wantB(rank, 0), wantC(rank, 0);
    wantC[d.m] = hc[0];
    wantC[d.n] = hc[1];
    if (lc != wantC)
      return offByLane('C', i, lc, wantC);
    if (ha[1] != 0) { // a K lane bit: any K offset, the same in A and B
      if (!onlyAlong(la, rank - 1) || spanK.count(la[rank - 1]))
        return error("lane bit " + llvm::Twine(i) + " moves A by " + show(la) +
                     "; mma.sync's fragment needs a new offset along K only");
      perm[llvm::Log2_32(ha[1])] = la[rank - 1];
      addToSpan(la[rank - 1]);
      wantB[rank - 2] = la[rank - 1];
    } else {
      wantA[d.m] = ha[0];
      if (la != wantA)
        return offByLane('A', i, la, wantA);
      wantB[d.n] = hb[1];
    }
    if (lb != wantB)
      return offByLane('B', i, lb, wantB);
  }
  if (llvm::Error e = checkSplit(a, b, c, d, kWarp))
    return e;
  if (llvm::Error e = checkSplit(a, b, c, d, kBlock))
    return e;

  // The fragment's K slots take A's first K registers that are new; the
  // K registers left over number the instruction's K steps.
  SmallVector<int32_t> slotK; // hardware K values of A's slot bits, in order
  for (unsigned j = 0, e = fa.getInDimSizeLog2("slot"); j < e; ++j)
    if (int32_t col = fa.getBasis("slot", j)[1])
      slotK.push_back(col);
  std::vector<Coord> kSteps;
  size_t nextSlot = 0;
  for (unsigned j = 0, e = a.getInDimSizeLog2(kRegister); j < e; ++j) {
    Coord r = basis(a, kRegister, j);
    if (!onlyAlong(r, rank - 1) || spanK.count(r[rank - 1]))
      continue;
    if (nextSlot < slotK.size()) {
      perm[llvm::Log2_32(slotK[nextSlot++])] = r[rank - 1];
    } else {
      Coord step(rank, 0);
      step[rank - 1] = r[rank - 1];
      kSteps.push_back(step);
    }
    addToSpan(r[rank - 1]);
  }
  if (nextSlot < slotK.size())
    return error("operand A's registers hold " + llvm::Twine(spanK.size()) +
                 " elements along K per thread and lane pattern; one mma.sync needs " +
                 llvm::Twine(int64_t(1) << hwKBits) + " (is K smaller than the instruction?)");
  auto tensorK = [&](int32_t hwK) {
    int32_t k = 0;
    for (unsigned j = 0; j < hwKBits; ++j)
      if (hwK >> j & 1)
        k ^= perm[j];
    return k;
  };

  // C tiles: C's register bases other than the fragment's own two slots.
  SmallVector<Coord> cSlots;
  for (unsigned j = 0; j < 2; ++j) {
    Coord s(rank, 0);
    s[d.m] = fc.getBasis("slot", j)[0];
    s[d.n] = fc.getBasis("slot", j)[1];
    cSlots.push_back(s);
  }
  std::vector<Coord> tileBases;
  SmallVector<bool> seenSlot(2, false);
  for (unsigned j = 0, e = c.getInDimSizeLog2(kRegister); j < e; ++j) {
    Coord r = basis(c, kRegister, j);
    if (llvm::all_of(r, [](int32_t v) { return v == 0; }))
      continue;
    auto it = llvm::find(cSlots, r);
    if (it != cSlots.end() && !seenSlot[it - cSlots.begin()]) {
      seenSlot[it - cSlots.begin()] = true;
      continue;
    }
    tileBases.push_back(r);
  }
  if (!seenSlot[0] || !seenSlot[1])
    return error("the accumulator's registers do not hold the pairs of columns and the rows "
                 "+8 of an m16n8 fragment");

  RegisterIndex ia(a), ib(b), ic(c);
  auto find = [&](const RegisterIndex &index, char which, const Coord &at) -> llvm::Expected<int32_t> {
    if (std::optional<int32_t> r = index.lookup(at))
      return *r;
    return error(llvm::Twine("no register of ") + llvm::Twine(which) + " holds element " +
                 show(at) + " that an mma.sync step needs");
  };
  MmaV2Plan plan;
  for (const Coord &tile : span(tileBases, rank)) {
    for (const Coord &kStep : span(kSteps, rank)) {
      int32_t kb = kStep[rank - 1];
      MmaV2Step step;
      for (int32_t s = 0, e = fa.getInDimSize("slot"); s < e; ++s) {
        Coord hw = point(fa, {{"slot", s}});
        Coord at = tile;
        at[d.m] ^= hw[0];
        at[rank - 1] = kb ^ tensorK(hw[1]);
        llvm::Expected<int32_t> r = find(ia, 'A', at);
        if (!r)
          return r.takeError();
        step.a.push_back(*r);
      }
      for (int32_t s = 0, e = fb.getInDimSize("slot"); s < e; ++s) {
        Coord hw = point(fb, {{"slot", s}});
        Coord at = tile;
        at[rank - 2] = kb ^ tensorK(hw[0]);
        at[rank - 1] = tile[d.n] ^ hw[1];
        llvm::Expected<int32_t> r = find(ib, 'B', at);
        if (!r)
          return r.takeError();
        step.b.push_back(*r);
      }
      for (int32_t s = 0, e = fc.getInDimSize("slot"); s < e; ++s) {
        Coord hw = point(fc, {{"slot", s}});
        Coord at = tile;
        at[d.m] ^= hw[0];
        at[d.n] ^= hw[1];
        llvm::Expected<int32_t> r = find(ic, 'C', at);
        if (!r)
          return r.takeError();
        step.c.push_back(*r);
      }
      plan.steps.push_back(std::move(step));
    }
  }
  plan.cCopies = ic.copies(c);
  return plan;
}

llvm::Expected<FmaPlan> planFma(const LinearLayout &a, const LinearLayout &b,
                                const LinearLayout &c) {
  if (llvm::Error e = checkRanks(a, b, c))
    return e;
  unsigned rank = c.getNumOutDims();
  Dims d{rank, rank - 2, rank - 1, 0};
  for (llvm::StringRef in : {kLane, kWarp, kBlock})
    if (llvm::Error e = checkSplit(a, b, c, d, in))
      return e;
  int32_t kSize = a.getOutDimSize(dimName(rank - 1));
  if (b.getOutDimSize(dimName(rank - 2)) != kSize)
    return error("A and B of the dot have different K extents");
  RegisterIndex ia(a), ib(b), ic(c);
  FmaPlan plan;
  plan.cCopies = ic.copies(c);
  plan.terms.resize(plan.cCopies.size());
  for (auto [r, first] : llvm::enumerate(plan.cCopies)) {
    if (first != int32_t(r))
      continue;
    Coord out = point(c, {{kRegister, int32_t(r)}});
    for (int32_t k = 0; k < kSize; ++k) {
      Coord atA = out, atB = out;
      atA[rank - 1] = k;
      atB[rank - 2] = k;
      atB[rank - 1] = out[d.n];
      std::optional<int32_t> ra = ia.lookup(atA), rb = ib.lookup(atB);
      if (!ra || !rb)
        return error("the thread computing C element " + show(out) +
                     " does not hold " + (ra ? "B" : "A") + " element " +
                     show(ra ? atB : atA) + " in its registers");
      plan.terms[r].push_back({*ra, *rb});
    }
  }
  return plan;
}

} // namespace kiln::layout
