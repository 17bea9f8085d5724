//===- AxisInfo.cpp - contiguity, divisibility and constancy --------------===//
//
// One transfer function per op kind, as Triton 3.6's AxisInfo visitors
// define them; ops without one learn nothing (every fact 1). Hints
// (`tt.divisibility`, `tt.contiguity`, `tt.constancy`, as an integer or a
// dense per-dimension array) on function arguments and on ops override what
// the analysis derives.
//
//===----------------------------------------------------------------------===//
#include "kiln/Analysis/AxisInfo.h"

#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <numeric>

using namespace mlir;

namespace kiln {

namespace {

constexpr int64_t kMax = AxisInfo::kMaxDivisor;

/// gcd in which 0 means "no constraint".
int64_t gcd(int64_t a, int64_t b) {
  if (a == 0)
    return b;
  if (b == 0)
    return a;
  return std::gcd(a, b);
}
int64_t gcd(int64_t a, int64_t b, int64_t c) { return gcd(gcd(a, b), c); }
int64_t gcd(int64_t a, int64_t b, int64_t c, int64_t d) { return gcd(gcd(a, b), gcd(c, d)); }

/// a * b, saturating at kMax.
int64_t mulDivisor(int64_t a, int64_t b) {
  if (b != 0 && a > kMax / b)
    return kMax;
  return a * b;
}

unsigned rankOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getRank();
  return 1;
}

ArrayRef<int64_t> shapeOf(Value value) {
  if (auto tensor = dyn_cast<RankedTensorType>(value.getType()))
    return tensor.getShape();
  return {};
}

int64_t dimSize(Value value, unsigned d) {
  auto shape = shapeOf(value);
  return d < shape.size() ? shape[d] : 1;
}

/// Pointee size in bytes (at least 1) of a pointer or tensor of pointers.
int64_t pointeeBytes(Type type) {
  Type pointee = tt::getPointeeType(getElementTypeOrSelf(type));
  if (!pointee || !pointee.isIntOrFloat())
    return 1;
  return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
}

/// Divisibility of a value that is `a` in some places and `b` in others:
/// when their runs differ in length, a run may start anywhere in a run of
/// the other, so the run lengths bound it too.
int64_t joinDivisibility(const AxisInfo &a, const AxisInfo &b, unsigned d) {
  if (a.contiguity[d] == b.contiguity[d] || a.contiguity[d] == kMax || b.contiguity[d] == kMax)
    return gcd(a.divisibility[d], b.divisibility[d]);
  return gcd(a.divisibility[d], b.divisibility[d], a.contiguity[d], b.contiguity[d]);
}

/// Overwrites `vec` with an integer or dense-array hint attribute.
void applyHint(Attribute attr, SmallVectorImpl<int64_t> &vec) {
  if (auto intAttr = dyn_cast_or_null<IntegerAttr>(attr)) {
    vec.assign(vec.size(), intAttr.getValue().getZExtValue());
    return;
  }
  if (auto dense = dyn_cast_or_null<DenseIntElementsAttr>(attr)) {
    if (dense.getNumElements() != static_cast<int64_t>(vec.size()))
      return;
    vec.clear();
    for (const APInt &v : dense.getValues<APInt>())
      vec.push_back(v.getZExtValue());
  }
}

template <typename GetAttr> void applyHints(AxisInfo &info, GetAttr getAttr) {
  applyHint(getAttr("tt.contiguity"), info.contiguity);
  applyHint(getAttr("tt.divisibility"), info.divisibility);
  applyHint(getAttr("tt.constancy"), info.constancy);
}

bool isConstantDim(const AxisInfo &info, Value value, unsigned d) {
  return info.constancy[d] == dimSize(value, d);
}
bool isContiguousDim(const AxisInfo &info, Value value, unsigned d) {
  return info.contiguity[d] == dimSize(value, d);
}

std::optional<int64_t> foldBinary(Operation *op, int64_t a, int64_t b) {
  return llvm::TypeSwitch<Operation *, std::optional<int64_t>>(op)
      .Case([&](arith::AddIOp) { return a + b; })
      .Case([&](arith::SubIOp) { return a - b; })
      .Case([&](arith::MulIOp) { return a * b; })
      .Case([&](tt::AddPtrOp ptrOp) { return a + b * pointeeBytes(ptrOp.getType()); })
      .Case<arith::DivSIOp, arith::DivUIOp>(
          [&](auto) -> std::optional<int64_t> { return b ? std::optional(a / b) : std::nullopt; })
      .Case<arith::RemSIOp, arith::RemUIOp>(
          [&](auto) -> std::optional<int64_t> { return b ? std::optional(a % b) : std::nullopt; })
      .Case([&](arith::AndIOp) { return a & b; })
      .Case([&](arith::OrIOp) { return a | b; })
      .Case([&](arith::XOrIOp) { return a ^ b; })
      .Case([&](arith::ShLIOp) -> std::optional<int64_t> {
        return b >= 0 && b < 63 ? std::optional(a << b) : std::nullopt;
      })
      .Case<arith::ShRUIOp, arith::ShRSIOp>([&](auto) -> std::optional<int64_t> {
        return b >= 0 && b < 63 ? std::optional(a >> b) : std::nullopt;
      })
      .Case<arith::MaxSIOp, arith::MaxUIOp>([&](auto) { return std::max(a, b); })
      .Case<arith::MinSIOp, arith::MinUIOp>([&](auto) { return std::min(a, b); })
      .Default([](Operation *) { return std::nullopt; });
}

/// Per-dimension facts of a binary integer op whose result is not constant.
struct BinaryFacts {
  int64_t contiguity = 1, divisibility = 1, constancy = 1;
};

BinaryFacts binaryFacts(Operation *op, const AxisInfo &l, const AxisInfo &r, unsigned d) {
  Value result = op->getResult(0);
  std::optional<int64_t> lc = l.constantValue, rc = r.constantValue;
  BinaryFacts f;
  f.constancy = gcd(l.constancy[d], r.constancy[d]);
  if (isa<arith::AddIOp, tt::AddPtrOp>(op)) {
    f.contiguity = std::max(gcd(l.constancy[d], r.contiguity[d]), gcd(l.contiguity[d], r.constancy[d]));
    // addptr advances by elements; divisibility is in bytes.
    int64_t rDiv = r.divisibility[d];
    if (auto ptrOp = dyn_cast<tt::AddPtrOp>(op))
      rDiv = mulDivisor(rDiv, pointeeBytes(ptrOp.getType()));
    f.divisibility = gcd(l.divisibility[d], rDiv);
  } else if (isa<arith::SubIOp>(op)) {
    // A run of consecutive values minus a non-constant one is not increasing.
    f.contiguity = gcd(l.contiguity[d], r.constancy[d]);
    f.divisibility = gcd(l.divisibility[d], r.divisibility[d]);
  } else if (isa<arith::MulIOp>(op)) {
    f.contiguity = std::max(rc == 1 ? l.contiguity[d] : 1, lc == 1 ? r.contiguity[d] : 1);
    // A run [2^n, 2^n + 1, ...] is only divisible by 1 as a whole.
    int64_t lDiv = l.contiguity[d] > 1 && rc != 1 ? 1 : l.divisibility[d];
    int64_t rDiv = r.contiguity[d] > 1 && lc != 1 ? 1 : r.divisibility[d];
    f.divisibility = mulDivisor(lDiv, rDiv);
  } else if (isa<arith::DivSIOp, arith::DivUIOp>(op)) {
    f.contiguity = rc == 1 ? l.contiguity[d] : 1;
    if (isContiguousDim(l, result, d) && isConstantDim(r, result, d))
      f.constancy = std::max(f.constancy, gcd(l.contiguity[d], l.divisibility[d], r.divisibility[d]));
    if (lc == 0 || rc == 1)
      f.divisibility = l.divisibility[d];
    else if (rc && llvm::isPowerOf2_64(std::abs(*rc)) && l.contiguity[d] == 1)
      f.divisibility = std::max<int64_t>(1, l.divisibility[d] / std::abs(*rc));
  } else if (isa<arith::RemSIOp, arith::RemUIOp>(op)) {
    if (isContiguousDim(l, result, d) && isConstantDim(r, result, d))
      f.contiguity = gcd(l.contiguity[d], l.divisibility[d], r.divisibility[d]);
    if (r.constancy[d] > 1)
      f.divisibility = gcd(l.divisibility[d], r.divisibility[d]);
    if (rc == 1)
      f.constancy = dimSize(result, d);
  } else if (isa<arith::ShLIOp>(op)) {
    f.contiguity = rc == 0 ? l.contiguity[d] : 1;
    int64_t shift = rc.value_or(0);
    int64_t lDiv = l.contiguity[d] > 1 && shift ? 1 : l.divisibility[d];
    f.divisibility = shift >= 0 && shift < 62 ? mulDivisor(lDiv, int64_t(1) << shift) : 1;
  } else if (isa<arith::ShRUIOp, arith::ShRSIOp>(op)) {
    f.contiguity = rc == 0 ? l.contiguity[d] : 1;
    if (rc && *rc >= 0 && *rc < 62) {
      int64_t lDiv = l.contiguity[d] > 1 && *rc ? 1 : l.divisibility[d];
      f.divisibility = std::max<int64_t>(1, lDiv / (int64_t(1) << *rc));
    }
  } else if (isa<arith::MaxSIOp, arith::MaxUIOp, arith::MinSIOp, arith::MinUIOp>(op)) {
    f.contiguity = gcd(l.contiguity[d], r.contiguity[d]);
    f.divisibility = joinDivisibility(l, r, d);
  }
  // and/or/xor: only constancy survives.
  return f;
}

bool isBinaryIntOp(Operation *op) {
  return isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, tt::AddPtrOp, arith::DivSIOp,
             arith::DivUIOp, arith::RemSIOp, arith::RemUIOp, arith::AndIOp, arith::OrIOp,
             arith::XOrIOp, arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp, arith::MaxSIOp,
             arith::MaxUIOp, arith::MinSIOp, arith::MinUIOp>(op);
}

bool compare(arith::CmpIPredicate p, int64_t a, int64_t b) {
  using P = arith::CmpIPredicate;
  switch (p) {
  case P::eq: return a == b;
  case P::ne: return a != b;
  case P::slt: return a < b;
  case P::sle: return a <= b;
  case P::sgt: return a > b;
  case P::sge: return a >= b;
  case P::ult: return uint64_t(a) < uint64_t(b);
  case P::ule: return uint64_t(a) <= uint64_t(b);
  case P::ugt: return uint64_t(a) > uint64_t(b);
  case P::uge: return uint64_t(a) >= uint64_t(b);
  }
  return false;
}

} // namespace

int64_t highestPowerOf2Divisor(int64_t n) {
  if (n == 0)
    return kMax;
  uint64_t u = static_cast<uint64_t>(n);
  return static_cast<int64_t>(std::min<uint64_t>(u & (~u + 1), kMax));
}

AxisInfo AxisInfo::pessimistic(unsigned rank) {
  return {SmallVector<int64_t>(rank, 1), SmallVector<int64_t>(rank, 1),
          SmallVector<int64_t>(rank, 1), std::nullopt};
}

AxisInfo AxisInfo::optimistic(unsigned rank) {
  return {SmallVector<int64_t>(rank, kMax), SmallVector<int64_t>(rank, kMax),
          SmallVector<int64_t>(rank, kMax), std::nullopt};
}

AxisInfo AxisInfo::join(const AxisInfo &a, const AxisInfo &b) {
  if (a.getRank() != b.getRank())
    return pessimistic(std::max(a.getRank(), b.getRank()));
  AxisInfo r = pessimistic(a.getRank());
  for (unsigned d = 0; d < a.getRank(); ++d) {
    r.contiguity[d] = gcd(a.contiguity[d], b.contiguity[d]);
    r.divisibility[d] = joinDivisibility(a, b, d);
    r.constancy[d] = gcd(a.constancy[d], b.constancy[d]);
  }
  if (a.constantValue == b.constantValue)
    r.constantValue = a.constantValue;
  return r;
}

void AxisInfo::print(raw_ostream &os) const {
  auto list = [&](StringRef name, ArrayRef<int64_t> v) {
    os << name << " = [";
    llvm::interleaveComma(v, os);
    os << "]";
  };
  list("contiguity", contiguity);
  list(", divisibility", divisibility);
  list(", constancy", constancy);
  os << ", constant_value = ";
  if (constantValue)
    os << *constantValue;
  else
    os << "<none>";
}

AxisInfoAnalysis::AxisInfoAnalysis(Operation *root) {
  root->walk([&](tt::FuncOp func) {
    if (func.isExternal())
      return;
    Block &entry = func.getBody().front();
    for (BlockArgument arg : entry.getArguments()) {
      AxisInfo info = AxisInfo::pessimistic(rankOf(arg.getType()));
      applyHints(info, [&](StringRef name) { return func.getArgAttr(arg.getArgNumber(), name); });
      set(arg, info);
    }
    for (Block &block : func.getBody())
      visitBlock(block);
  });
}

AxisInfo AxisInfoAnalysis::get(Value value) const {
  auto it = infos.find(value);
  if (it != infos.end())
    return it->second;
  return AxisInfo::pessimistic(rankOf(value.getType()));
}

unsigned AxisInfoAnalysis::getPtrAlignment(Value ptr, unsigned dim) const {
  AxisInfo info = get(ptr);
  if (dim >= info.getRank())
    return 1;
  int64_t bytes = pointeeBytes(ptr.getType());
  int64_t multiple = std::max<int64_t>(info.divisibility[dim] / bytes, 1);
  return std::clamp<int64_t>(std::min(multiple, info.contiguity[dim]), 1, dimSize(ptr, dim));
}

unsigned AxisInfoAnalysis::getMaskAlignment(Value mask, unsigned dim) const {
  AxisInfo info = get(mask);
  if (dim >= info.getRank())
    return 1;
  return std::clamp<int64_t>(info.constancy[dim], 1, dimSize(mask, dim));
}

void AxisInfoAnalysis::set(Value value, AxisInfo info) { infos[value] = std::move(info); }

void AxisInfoAnalysis::setBlockArgs(Block &block, bool optimistic) {
  for (BlockArgument arg : block.getArguments()) {
    unsigned rank = rankOf(arg.getType());
    set(arg, optimistic ? AxisInfo::optimistic(rank) : AxisInfo::pessimistic(rank));
  }
}

void AxisInfoAnalysis::visitBlock(Block &block) {
  for (Operation &op : block)
    visitOp(&op);
}

void AxisInfoAnalysis::visitOp(Operation *op) {
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    // The induction variable: lb + k * step.
    AxisInfo lb = get(forOp.getLowerBound()), step = get(forOp.getStep());
    AxisInfo iv = AxisInfo::pessimistic(1);
    iv.divisibility[0] = gcd(lb.divisibility[0], step.divisibility[0]);
    set(forOp.getInductionVar(), iv);
    // Iteration arguments: the join of the initial values and of everything
    // the body yields, reached by iterating (facts only shrink, so this ends;
    // the bound is a guard).
    SmallVector<AxisInfo> args;
    for (Value init : forOp.getInitArgs())
      args.push_back(get(init));
    auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
    for (int round = 0;; ++round) {
      for (auto [arg, info] : llvm::zip(forOp.getRegionIterArgs(), args))
        set(arg, info);
      visitBlock(*forOp.getBody());
      bool changed = false;
      for (auto [info, yielded] : llvm::zip(args, yield.getOperands())) {
        AxisInfo next = AxisInfo::join(info, get(yielded));
        changed |= next != info;
        info = next;
      }
      if (!changed)
        break;
      if (round == 16) {
        for (auto [info, arg] : llvm::zip(args, forOp.getRegionIterArgs()))
          info = AxisInfo::pessimistic(rankOf(arg.getType()));
        for (auto [arg, info] : llvm::zip(forOp.getRegionIterArgs(), args))
          set(arg, info);
        visitBlock(*forOp.getBody());
        break;
      }
    }
    for (auto [result, info] : llvm::zip(forOp.getResults(), args))
      set(result, info);
    return;
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    for (Region &region : ifOp->getRegions())
      for (Block &block : region)
        visitBlock(block);
    for (auto [i, result] : llvm::enumerate(ifOp.getResults())) {
      AxisInfo info = get(ifOp.thenYield().getOperand(i));
      if (!ifOp.getElseRegion().empty())
        info = AxisInfo::join(info, get(ifOp.elseYield().getOperand(i)));
      set(result, info);
    }
    return;
  }
  // Any other region (while loops, reduce and scan combiners, ...): its
  // block arguments are unknown.
  for (Region &region : op->getRegions())
    for (Block &block : region) {
      setBlockArgs(block, /*optimistic=*/false);
      visitBlock(block);
    }
  if (op->getNumResults() == 0)
    return;

  Value result = op->getResult(0);
  unsigned rank = rankOf(result.getType());
  std::optional<AxisInfo> info;
  auto operand = [&](unsigned i) { return get(op->getOperand(i)); };

  if (isa<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, arith::IndexCastOp, tt::BitcastOp,
          ttg::ConvertLayoutOp, UnrealizedConversionCastOp>(op) &&
      op->getNumOperands() == 1) {
    info = operand(0);
  } else if (auto range = dyn_cast<tt::MakeRangeOp>(op)) {
    info = AxisInfo{{int64_t(range.getEnd()) - int64_t(range.getStart())},
                    {highestPowerOf2Divisor(range.getStart())},
                    {1},
                    std::nullopt};
  } else if (isa<ub::PoisonOp>(op)) {
    info = AxisInfo::optimistic(rank);
  } else if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    std::optional<int64_t> value;
    if (auto intAttr = dyn_cast<IntegerAttr>(cst.getValue()))
      value = intAttr.getType().isInteger(1) ? intAttr.getValue().getZExtValue()
                                             : intAttr.getValue().getSExtValue();
    else if (auto dense = dyn_cast<DenseIntElementsAttr>(cst.getValue()); dense && dense.isSplat())
      value = dense.getSplatValue<APInt>().getSExtValue();
    if (value) {
      info = AxisInfo::pessimistic(rank);
      info->divisibility.assign(rank, highestPowerOf2Divisor(*value));
      if (auto tensor = dyn_cast<RankedTensorType>(result.getType()))
        info->constancy.assign(tensor.getShape().begin(), tensor.getShape().end());
      info->constantValue = value;
    }
  } else if (isBinaryIntOp(op) && op->getNumOperands() == 2) {
    AxisInfo l = operand(0), r = operand(1);
    if (l.getRank() == rank && r.getRank() == rank) {
      info = AxisInfo::pessimistic(rank);
      std::optional<int64_t> folded;
      if (l.constantValue && r.constantValue)
        folded = foldBinary(op, *l.constantValue, *r.constantValue);
      else if (r.constantValue == 1 && isa<arith::RemSIOp, arith::RemUIOp>(op))
        folded = 0;
      for (unsigned d = 0; d < rank; ++d) {
        if (folded) {
          info->constancy[d] = std::max(l.constancy[d], r.constancy[d]);
          info->divisibility[d] = highestPowerOf2Divisor(*folded);
        } else {
          BinaryFacts f = binaryFacts(op, l, r, d);
          info->contiguity[d] = f.contiguity;
          info->divisibility[d] = f.divisibility;
          info->constancy[d] = f.constancy;
        }
      }
      // The constant of a pointer is an address: not worth knowing.
      if (!isa<tt::AddPtrOp>(op))
        info->constantValue = folded;
    }
  } else if (auto splat = dyn_cast<tt::SplatOp>(op)) {
    AxisInfo src = operand(0);
    info = AxisInfo::pessimistic(rank);
    info->divisibility.assign(rank, src.divisibility[0]);
    auto shape = shapeOf(result);
    info->constancy.assign(shape.begin(), shape.end());
    info->constantValue = src.constantValue;
  } else if (auto load = dyn_cast<tt::LoadOp>(op)) {
    // Equal addresses under an equal mask load equal values.
    AxisInfo ptr = operand(0);
    if (ptr.getRank() == rank) {
      info = AxisInfo::pessimistic(rank);
      for (unsigned d = 0; d < rank; ++d)
        info->constancy[d] =
            gcd(ptr.constancy[d], load.getMask() ? get(load.getMask()).constancy[d] : 0);
    }
  } else if (auto expand = dyn_cast<tt::ExpandDimsOp>(op)) {
    AxisInfo src = operand(0);
    int64_t newDiv = 1;
    if (src.constantValue) {
      newDiv = highestPowerOf2Divisor(*src.constantValue);
    } else {
      newDiv = src.contiguity[0] > 1 ? 1 : src.divisibility[0];
      for (unsigned d = 1; d < src.getRank(); ++d)
        newDiv = gcd(newDiv, src.contiguity[d] > 1 ? 1 : src.divisibility[d]);
    }
    info = src;
    unsigned axis = expand.getAxis();
    info->contiguity.insert(info->contiguity.begin() + axis, 1);
    info->divisibility.insert(info->divisibility.begin() + axis, newDiv);
    info->constancy.insert(info->constancy.begin() + axis, 1);
  } else if (isa<tt::BroadcastOp>(op)) {
    AxisInfo src = operand(0);
    auto srcShape = shapeOf(op->getOperand(0)), shape = shapeOf(result);
    if (src.getRank() == rank && srcShape.size() == rank) {
      info = src;
      for (unsigned d = 0; d < rank; ++d)
        if (srcShape[d] == 1) {
          info->contiguity[d] = 1;
          info->constancy[d] = shape[d];
        }
    }
  } else if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    AxisInfo l = operand(0), r = operand(1);
    if (isa<RankedTensorType>(result.getType()) && l.getRank() == rank && r.getRank() == rank) {
      using P = arith::CmpIPredicate;
      P p = cmp.getPredicate();
      bool gtOrLe = p == P::sgt || p == P::ugt || p == P::sle || p == P::ule;
      bool ltOrGe = p == P::slt || p == P::ult || p == P::sge || p == P::uge;
      info = AxisInfo::pessimistic(rank);
      for (unsigned d = 0; d < rank; ++d) {
        if (l.constantValue && r.constantValue) {
          info->constancy[d] = l.constancy[d];
          info->constantValue = compare(p, *l.constantValue, *r.constantValue);
          continue;
        }
        // A constant against a run of consecutive values flips at most once
        // per aligned block.
        int64_t c = gcd(l.constancy[d], r.constancy[d]);
        if (gtOrLe && isConstantDim(l, op->getOperand(0), d))
          c = std::max(c, gcd(r.contiguity[d], l.divisibility[d], r.divisibility[d]));
        else if (ltOrGe && isConstantDim(r, op->getOperand(1), d))
          c = std::max(c, gcd(l.contiguity[d], l.divisibility[d], r.divisibility[d]));
        info->constancy[d] = c;
      }
    }
  } else if (auto select = dyn_cast<arith::SelectOp>(op)) {
    AxisInfo c = operand(0), l = operand(1), r = operand(2);
    if (c.constantValue) {
      info = *c.constantValue ? l : r;
    } else if (l.getRank() == rank && r.getRank() == rank) {
      bool scalarCond = !isa<RankedTensorType>(select.getCondition().getType());
      info = AxisInfo::pessimistic(rank);
      for (unsigned d = 0; d < rank; ++d) {
        int64_t cc = scalarCond ? 0 : c.constancy[d];
        info->constancy[d] = gcd(l.constancy[d], r.constancy[d], cc);
        info->contiguity[d] = gcd(l.contiguity[d], r.contiguity[d], cc);
        info->divisibility[d] = joinDivisibility(l, r, d);
      }
      if (l.constantValue && l.constantValue == r.constantValue)
        info->constantValue = l.constantValue;
    }
  }

  if (!info || info->getRank() != rank)
    info = AxisInfo::pessimistic(rank);
  applyHints(*info, [&](StringRef name) { return op->getDiscardableAttr(name); });
  for (Value value : op->getResults())
    set(value, value == result ? *info : AxisInfo::pessimistic(rankOf(value.getType())));
}

} // namespace kiln
