//===- Contiguity.cpp - what a memory access may assume -------------------===//
#include "Contiguity.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Layout/Queries.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;

namespace kiln::lowering {
namespace {

// Divisibility is capped so that products stay far from overflow.
constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

int64_t powerOfTwoDividing(int64_t v) {
  if (v == 0)
    return kMaxDivisibility;
  return std::min<int64_t>(int64_t(1) << llvm::countr_zero(uint64_t(v)), kMaxDivisibility);
}

SmallVector<int64_t> shapeOf(Value v) {
  if (auto t = dyn_cast<RankedTensorType>(v.getType()))
    return SmallVector<int64_t>(t.getShape());
  return {1};
}

AxisFacts uniform(Value v, int64_t contiguity, int64_t divisibility, int64_t constancy) {
  size_t rank = shapeOf(v).size();
  return {SmallVector<int64_t>(rank, contiguity), SmallVector<int64_t>(rank, divisibility),
          SmallVector<int64_t>(rank, constancy)};
}

/// Constancy across a whole dimension: a splat or a constant.
AxisFacts constantFacts(Value v, int64_t divisibility) {
  AxisFacts f = uniform(v, 1, divisibility, 1);
  f.constancy = shapeOf(v);
  return f;
}

/// The bytes one pointee of `ptrLike` takes in memory (i1: a byte,
/// pointers: 8).
int64_t elementBytes(Type ptrLike) {
  auto ptr = dyn_cast<tt::PointerType>(getElementTypeOrSelf(ptrLike));
  Type pointee = ptr ? ptr.getPointeeType() : Type();
  if (isa_and_nonnull<tt::PointerType>(pointee))
    return 8;
  if (!pointee || !pointee.isIntOrFloat())
    return 1;
  return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
}

/// a + b; for addptr, b is scaled to bytes (contiguity counts elements).
AxisFacts add(const AxisFacts &a, const AxisFacts &b, int64_t scale) {
  AxisFacts f;
  for (size_t d = 0; d < a.contiguity.size(); ++d) {
    // A contiguous run plus a constant stays contiguous.
    int64_t c = std::max(std::gcd(a.contiguity[d], b.constancy[d]),
                         std::gcd(b.contiguity[d], a.constancy[d]));
    int64_t div =
        std::gcd(a.divisibility[d], std::min(b.divisibility[d] * scale, kMaxDivisibility));
    // Runs cut shorter than an operand's start inside that operand's run.
    if (c < std::max(a.contiguity[d], b.contiguity[d]))
      div = std::gcd(div, c);
    f.contiguity.push_back(c);
    f.divisibility.push_back(div);
    f.constancy.push_back(std::gcd(a.constancy[d], b.constancy[d]));
  }
  return f;
}

/// Facts of an operation that is neither contiguous nor known divisible,
/// only as constant as both operands.
AxisFacts combineConstancy(Value v, const AxisFacts &a, const AxisFacts &b) {
  AxisFacts f = uniform(v, 1, 1, 1);
  for (size_t d = 0; d < f.constancy.size(); ++d)
    f.constancy[d] = std::gcd(a.constancy[d], b.constancy[d]);
  return f;
}

AxisFacts analyze(Value v, unsigned depth);

AxisFacts analyzeOp(Operation *op, Value v, unsigned depth) {
  auto sub = [&](Value operand) { return analyze(operand, depth + 1); };
  return llvm::TypeSwitch<Operation *, AxisFacts>(op)
      .Case([&](arith::ConstantOp c) {
        if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
          return constantFacts(v, powerOfTwoDividing(i.getInt()));
        if (auto s = dyn_cast<SplatElementsAttr>(c.getValue()))
          if (auto i = dyn_cast<IntegerAttr>(s.getSplatValue<Attribute>()))
            return constantFacts(v, powerOfTwoDividing(i.getInt()));
        return constantFacts(v, 1);
      })
      .Case([&](tt::MakeRangeOp r) {
        int64_t size = int64_t(r.getEnd()) - r.getStart();
        return AxisFacts{{size}, {powerOfTwoDividing(r.getStart())}, {1}};
      })
      .Case([&](tt::SplatOp s) { return constantFacts(v, sub(s.getSrc()).divisibility[0]); })
      .Case([&](tt::BroadcastOp b) {
        AxisFacts f = sub(b.getSrc());
        ArrayRef<int64_t> from = b.getSrc().getType().getShape();
        for (auto [d, size] : llvm::enumerate(b.getType().getShape()))
          if (from[d] == 1 && size != 1) {
            f.contiguity[d] = 1;
            f.constancy[d] = size;
          }
        return f;
      })
      .Case([&](tt::ExpandDimsOp e) {
        AxisFacts f = sub(e.getSrc());
        unsigned axis = e.getAxis();
        int64_t div = *llvm::min_element(f.divisibility);
        f.contiguity.insert(f.contiguity.begin() + axis, 1);
        f.divisibility.insert(f.divisibility.begin() + axis, div);
        f.constancy.insert(f.constancy.begin() + axis, 1);
        return f;
      })
      .Case([&](arith::AddIOp a) { return add(sub(a.getLhs()), sub(a.getRhs()), 1); })
      .Case([&](tt::AddPtrOp a) {
        return add(sub(a.getPtr()), sub(a.getOffset()), elementBytes(a.getType()));
      })
      .Case([&](arith::MulIOp m) {
        AxisFacts a = sub(m.getLhs()), b = sub(m.getRhs());
        AxisFacts f = combineConstancy(v, a, b);
        // Every element is its own run now: a contiguous operand's later
        // elements are known divisible by nothing.
        for (size_t d = 0; d < f.contiguity.size(); ++d) {
          int64_t da = a.contiguity[d] > 1 ? 1 : a.divisibility[d];
          int64_t db = b.contiguity[d] > 1 ? 1 : b.divisibility[d];
          f.divisibility[d] = std::min(da * db, kMaxDivisibility);
        }
        return f;
      })
      .Case([&](arith::AndIOp a) { return combineConstancy(v, sub(a.getLhs()), sub(a.getRhs())); })
      .Default([&](Operation *) { return uniform(v, 1, 1, 1); });
}

AxisFacts analyze(Value v, unsigned depth) {
  // Deep chains are rare; stopping keeps the analysis linear in practice.
  if (depth > 32)
    return uniform(v, 1, 1, 1);
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto func = dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (func && arg.getOwner()->isEntryBlock())
      if (auto div = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), "tt.divisibility"))
        return constantFacts(v, std::min(powerOfTwoDividing(div.getInt()), kMaxDivisibility));
    return uniform(v, 1, 1, 1);
  }
  Operation *op = v.getDefiningOp();
  // Comparisons: `x < n` with x contiguous from a multiple of g and n a
  // multiple of g, constant over g elements, is the same for each run of g.
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    AxisFacts a = analyze(cmp.getLhs(), depth + 1), b = analyze(cmp.getRhs(), depth + 1);
    AxisFacts f = combineConstancy(v, a, b);
    using P = arith::CmpIPredicate;
    if (llvm::is_contained({P::slt, P::ult, P::sge, P::uge}, cmp.getPredicate()))
      for (size_t d = 0; d < f.constancy.size(); ++d)
        f.constancy[d] = std::max(
            f.constancy[d],
            std::gcd(std::gcd(a.contiguity[d], a.divisibility[d]),
                     std::gcd(b.divisibility[d], b.constancy[d])));
    return f;
  }
  return analyzeOp(op, v, depth);
}

} // namespace

AxisFacts analyzeAxes(Value value) { return analyze(value, 0); }

unsigned accessVectorWidth(Value ptr, Value mask) {
  auto tensor = dyn_cast<RankedTensorType>(ptr.getType());
  if (!tensor)
    return 1;
  llvm::Expected<layout::LinearLayout> ll = ttg::toLinearLayout(tensor);
  if (!ll) {
    llvm::consumeError(ll.takeError());
    return 1;
  }
  if (ll->getInDimSizeLog2(layout::kRegister) == 0)
    return 1;
  // The dimension consecutive registers step along, by exactly 1.
  ArrayRef<int32_t> first = ll->getBasis(layout::kRegister, 0);
  if (llvm::count_if(first, [](int32_t c) { return c != 0; }) != 1)
    return 1;
  const int32_t *step = llvm::find(first, 1);
  if (step == first.end())
    return 1;
  unsigned dim = step - first.begin();
  int64_t bytes = elementBytes(tensor);
  int64_t vec = layout::registerVectorWidth(*ll, dim, unsigned(bytes * 8));
  AxisFacts facts = analyzeAxes(ptr);
  vec = std::min(vec, facts.contiguity[dim]);
  vec = std::min(vec, std::max<int64_t>(1, facts.divisibility[dim] / bytes));
  if (mask)
    vec = std::min(vec, analyzeAxes(mask).constancy[dim]);
  return unsigned(llvm::bit_floor(uint64_t(std::max<int64_t>(vec, 1))));
}

} // namespace kiln::lowering
