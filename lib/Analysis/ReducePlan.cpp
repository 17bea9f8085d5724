//===- ReducePlan.cpp - planning tt.reduce and tt.scan from layouts -------===//
#include "kiln/Analysis/ReducePlan.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Layout/Queries.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#include <map>
#include <set>

using namespace mlir;
namespace layout = kiln::layout;
using layout::LinearLayout;

namespace kiln {

namespace {

llvm::Error fail(const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), why);
}

SmallVector<unsigned> bitsOf(uint64_t mask) {
  SmallVector<unsigned> bits;
  for (unsigned i = 0; i < 64; ++i)
    if (mask >> i & 1)
      bits.push_back(i);
  return bits;
}

using Coords = SmallVector<int32_t>;

Coords registerPart(const LinearLayout &ll, int32_t reg) {
  SmallVector<int32_t> in(ll.getNumInDims(), 0);
  in[ll.getInDimIndex(layout::kRegister)] = reg;
  return ll.apply(in);
}

Coords withoutAxis(Coords c, unsigned axis) {
  c.erase(c.begin() + axis);
  return c;
}

/// The parts both plans share, and the operand's layout.
llvm::Expected<std::pair<AxisPlanBase, layout::AxisBits>>
planBase(ArrayRef<RankedTensorType> inputs, unsigned axis, const LinearLayout &ll) {
  AxisPlanBase base;
  base.axis = axis;
  for (RankedTensorType type : inputs) {
    Type elem = type.getElementType();
    if (!elem.isIntOrFloat())
      return fail("only integer and floating-point operands are supported");
    base.elementBytes.push_back(std::max(1u, elem.getIntOrFloatBitWidth() / 8));
  }
  // One CTA's tile (the whole tensor in a program of one CTA).
  for (const LinearLayout::DimSize &out : ll.getOutDims())
    base.shape.push_back(out.size);
  llvm::Expected<layout::AxisBits> bits = layout::axisBits(ll, axis);
  if (!bits)
    return bits.takeError();
  base.laneCopies = bits->laneCopies;
  base.warpCopies = bits->warpCopies;
  // Warps along the axis, by the coordinate their basis moves to.
  SmallVector<unsigned> warps = bitsOf(bits->warpAxis);
  llvm::stable_sort(warps, [&](unsigned a, unsigned b) {
    return ll.getBasis(layout::kWarp, a)[axis] < ll.getBasis(layout::kWarp, b)[axis];
  });
  base.warpAxisBits = std::move(warps);
  // Row-major strides over the shape without the axis.
  SmallVector<int64_t> rowShape = base.shape;
  rowShape.erase(rowShape.begin() + axis);
  base.rowStrides.assign(rowShape.size(), 1);
  for (int d = int(rowShape.size()) - 2; d >= 0; --d)
    base.rowStrides[d] = base.rowStrides[d + 1] * rowShape[d + 1];
  for (int64_t s : rowShape)
    base.rows *= s;
  return std::make_pair(std::move(base), *bits);
}

} // namespace

SmallVector<int64_t> AxisPlanBase::operandOffsets(int64_t slotsPerRow) const {
  SmallVector<int64_t> offsets;
  int64_t next = 0;
  for (unsigned bytes : elementBytes) {
    offsets.push_back(next);
    next = int64_t(llvm::alignTo(next + rows * slotsPerRow * bytes, 16));
  }
  return offsets;
}

int64_t AxisPlanBase::scratchBytes(int64_t slotsPerRow) const {
  if (elementBytes.empty())
    return 0;
  return operandOffsets(slotsPerRow).back() + rows * slotsPerRow * elementBytes.back();
}

llvm::Expected<ReducePlan> planReduce(Operation *op, unsigned warpSize) {
  auto reduce = cast<tt::ReduceOp>(op);
  SmallVector<RankedTensorType> inputs = reduce.getInputTypes();
  unsigned axis = reduce.getAxis();
  llvm::Expected<LinearLayout> ll = ttg::toCTALinearLayout(inputs[0]);
  if (!ll)
    return ll.takeError();
  auto base = planBase(inputs, axis, *ll);
  if (!base)
    return base.takeError();
  ReducePlan plan;
  static_cast<AxisPlanBase &>(plan) = std::move(base->first);
  const layout::AxisBits &bits = base->second;
  plan.laneAxisBits = bitsOf(bits.laneAxis);

  // Each element once: a register holding a copy of an earlier one is left
  // out; the others go to the result register holding their row.
  std::map<Coords, SmallVector<unsigned>> byRow;
  for (int32_t r = 0, e = ll->getInDimSize(layout::kRegister); r < e; ++r)
    if (!(uint64_t(r) & bits.registerCopies))
      byRow[withoutAxis(registerPart(*ll, r), axis)].push_back(r);

  auto result = dyn_cast<RankedTensorType>(reduce.getResult()[0].getType());
  uint64_t resultBroadcastLanes = 0;
  if (!result) {
    // A scalar: every thread holds the whole reduction.
    SmallVector<unsigned> all;
    for (auto &[row, regs] : byRow)
      all.append(regs);
    llvm::sort(all);
    plan.groups.push_back(std::move(all));
    resultBroadcastLanes = warpSize - 1;
  } else {
    llvm::Expected<LinearLayout> resLL = ttg::toCTALinearLayout(result);
    if (!resLL)
      return resLL.takeError();
    // The result must hold each row on the threads that reduce it.
    for (StringRef in : {layout::kLane, layout::kWarp})
      for (unsigned i = 0, e = ll->getInDimSizeLog2(in); i < e; ++i) {
        Coords src(ll->getBasis(in, i).begin(), ll->getBasis(in, i).end());
        if (resLL->getInDimSizeLog2(in) != e ||
            withoutAxis(src, axis) != Coords(resLL->getBasis(in, i).begin(),
                                             resLL->getBasis(in, i).end()))
          return fail("the result layout is not the operand's with the axis dropped");
      }
    std::set<Coords> used;
    for (int32_t j = 0, e = resLL->getInDimSize(layout::kRegister); j < e; ++j) {
      auto it = byRow.find(registerPart(*resLL, j));
      if (it == byRow.end())
        return fail("a result register holds a row the operand's thread does not");
      plan.groups.push_back(it->second);
      used.insert(it->first);
    }
    if (used.size() != byRow.size())
      return fail("the operand holds a row no result register holds");
    for (unsigned i = 0, e = resLL->getInDimSizeLog2(layout::kLane); i < e; ++i)
      if (llvm::all_of(resLL->getBasis(layout::kLane, i), [](int32_t c) { return c == 0; }))
        resultBroadcastLanes |= uint64_t(1) << i;
  }

  if (plan.crossWarp()) {
    // A few direct loads per result, then shuffles over lanes holding the
    // same results: 4 warps read 4 partials, more warps also shuffle.
    unsigned k = plan.warpAxisBits.size();
    unsigned wanted = k > 2 ? k - 2 : 0;
    for (unsigned bit : bitsOf(resultBroadcastLanes))
      if (plan.exchangeLaneBits.size() < wanted)
        plan.exchangeLaneBits.push_back(bit);
    plan.loadsPerResult = 1u << (k - plan.exchangeLaneBits.size());
  }
  return plan;
}

llvm::Expected<ScanPlan> planScan(Operation *op) {
  auto scan = cast<tt::ScanOp>(op);
  SmallVector<RankedTensorType> inputs = scan.getInputTypes();
  unsigned axis = scan.getAxis();
  llvm::Expected<LinearLayout> ll = ttg::toCTALinearLayout(inputs[0]);
  if (!ll)
    return ll.takeError();
  auto base = planBase(inputs, axis, *ll);
  if (!base)
    return base.takeError();
  ScanPlan plan;
  static_cast<AxisPlanBase &>(plan) = std::move(base->first);
  plan.reverse = scan.getReverse();
  const layout::AxisBits &bits = base->second;

  // The axis coordinate must be the hardware bits laid out as registers
  // (a chunk), lanes, warps, registers (blocks), least significant first.
  struct Bit {
    int32_t value;
    char kind;
    unsigned bit;
  };
  SmallVector<Bit> order;
  auto collect = [&](StringRef in, char kind, uint64_t mask) {
    for (unsigned i : bitsOf(mask))
      order.push_back({ll->getBasis(in, i)[axis], kind, i});
  };
  collect(layout::kRegister, 'r', bits.registerAxis);
  collect(layout::kLane, 'l', bits.laneAxis);
  collect(layout::kWarp, 'w', bits.warpAxis);
  llvm::sort(order, [](const Bit &a, const Bit &b) { return a.value < b.value; });
  std::string kinds;
  for (auto [i, b] : llvm::enumerate(order)) {
    if (b.value != int32_t(1) << i)
      return fail("a scan along an axis whose coordinate bits are not each one hardware bit");
    kinds += b.kind;
  }
  size_t c = 0;
  while (c < kinds.size() && kinds[c] == 'r')
    ++c;
  size_t l = c;
  while (l < kinds.size() && kinds[l] == 'l')
    ++l;
  size_t w = l;
  while (w < kinds.size() && kinds[w] == 'w')
    ++w;
  size_t h = w;
  while (h < kinds.size() && kinds[h] == 'r')
    ++h;
  if (h != kinds.size())
    return fail("a scan along an axis not laid out as registers, lanes, warps, registers");
  plan.chunk = 1u << c;
  plan.laneBits = unsigned(l - c);
  plan.numBlocks = 1u << (h - w);
  if (plan.laneBits) {
    plan.laneShift = order[c].bit;
    for (unsigned i = 0; i < plan.laneBits; ++i)
      if (order[c + i].bit != plan.laneShift + i)
        return fail("a scan along lanes that are not consecutive lane-id bits");
  }
  unsigned belowBlocks = unsigned(w);

  std::map<Coords, unsigned> first;
  std::map<Coords, SmallVector<unsigned>> byRow;
  std::map<Coords, unsigned> rowIndex;
  unsigned perRow = plan.chunk * plan.numBlocks;
  for (int32_t r = 0, e = ll->getInDimSize(layout::kRegister); r < e; ++r) {
    Coords coords = registerPart(*ll, r);
    auto [it, isNew] = first.try_emplace(coords, unsigned(r));
    plan.canonical.push_back(it->second);
    if (!isNew)
      continue;
    Coords row = withoutAxis(coords, axis);
    auto [rit, newRow] = rowIndex.try_emplace(row, unsigned(plan.groups.size()));
    if (newRow)
      plan.groups.emplace_back(perRow, ~0u);
    int32_t a = coords[axis];
    unsigned pos = unsigned(a >> belowBlocks) * plan.chunk + unsigned(a & (plan.chunk - 1));
    if (pos >= perRow || plan.groups[rit->second][pos] != ~0u)
      return fail("a scan whose registers do not tile the axis");
    plan.groups[rit->second][pos] = unsigned(r);
  }
  for (auto &g : plan.groups)
    if (llvm::is_contained(g, ~0u))
      return fail("a scan whose registers do not tile the axis");
  return plan;
}

} // namespace kiln
