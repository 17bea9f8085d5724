//===- ClusterChecks.cpp - what a program of several CTAs may do ----------===//
//
// In a program of several CTAs (a cluster, `ttg.num-ctas` > 1) every CTA
// lowers its own tile of each tensor (layout::ctaTile) and data moves only
// inside a CTA, except in a convert_layout, which moves elements between
// CTAs through distributed shared memory. Every other op is right when it
// keeps each element in the CTA that holds it: the tensors it reads and
// writes are split over the CTAs alike. This file finds the ops where that
// fails and reports them, located, before anything is converted.
//
//===----------------------------------------------------------------------===//
#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"
#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "kiln/Dialect/TritonGPU/IR/Dialect.h"
#include "kiln/Layout/Queries.h"

using namespace mlir;
namespace layout = kiln::layout;
using kiln::layout::LinearLayout;

namespace kiln::lowering {
namespace {

/// The block bases of a tensor's or buffer's layout: for each bit of the
/// CTA index, the tensor coordinates it moves to (empty: one CTA).
std::optional<std::vector<LinearLayout::Basis>> blockBases(Type type) {
  std::optional<LinearLayout> ll;
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    llvm::Expected<LinearLayout> l = ttg::toLinearLayout(tensor);
    if (!l) {
      llvm::consumeError(l.takeError());
      return std::nullopt;
    }
    ll = std::move(*l);
  } else if (auto buffer = dyn_cast<ttg::MemDescType>(type)) {
    auto encoding = dyn_cast_or_null<ttg::LayoutEncodingInterface>(buffer.getEncoding());
    if (!encoding)
      return std::nullopt;
    llvm::Expected<LinearLayout> l = encoding.toLinearLayout(buffer.getShape());
    if (!l) {
      llvm::consumeError(l.takeError());
      return std::nullopt;
    }
    ll = std::move(*l);
  } else {
    return std::nullopt;
  }
  if (!ll->hasInDim(layout::kBlock))
    return std::vector<LinearLayout::Basis>{};
  return ll->getInDims()[ll->getInDimIndex(layout::kBlock)].bases;
}

bool replicated(const std::vector<LinearLayout::Basis> &bases) {
  return llvm::all_of(bases, [](const LinearLayout::Basis &b) {
    return llvm::all_of(b, [](int32_t c) { return c == 0; });
  });
}

/// Whether every CTA holds the same elements of two tensors of one shape.
bool sameSplit(Type a, Type b) {
  auto sa = blockBases(a), sb = blockBases(b);
  return sa && sb && *sa == *sb;
}

} // namespace

LogicalResult checkCTALocality(Operation *op, unsigned numCTAs, bool lowersCTATiles) {
  if (numCTAs == 1)
    return success();
  auto fail = [&](const Twine &why) {
    return op->emitError() << "op '" << op->getName() << "' cannot be lowered to LLVM in a "
                           << "program of " << numCTAs << " CTAs (num_ctas): " << why;
  };
  // Ops that compute with the whole layouts (register renaming, tensor
  // coordinates) and check the CTAs themselves, or hold no tensor.
  if (isa<tt::TransOp, tt::ReshapeOp, tt::JoinOp, tt::SplitOp, tt::CatOp, tt::UnsplatOp,
          tt::BroadcastOp, tt::ExpandDimsOp, tt::MakeRangeOp, tt::SplatOp>(op))
    return success();
  // A conversion moves elements between CTAs through distributed shared
  // memory where it must (ConversionPath::Cluster).
  if (isa<ttg::ConvertLayoutOp>(op))
    return success();
  if (isa<tt::ReduceOp, tt::ScanOp>(op)) {
    unsigned axis = isa<tt::ReduceOp>(op) ? cast<tt::ReduceOp>(op).getAxis()
                                           : cast<tt::ScanOp>(op).getAxis();
    if (ttg::isSplitOverCTAs(cast<RankedTensorType>(op->getOperand(0).getType()), axis))
      return fail("its axis is split over the CTAs; combining across the CTAs of a cluster is "
                  "not lowered yet (the ttgir stage keeps reduced axes in one CTA)");
    return success();
  }
  if (isa<tt::AtomicRMWOp, tt::AtomicCASOp, tt::AtomicLoadOp, tt::AtomicPollOp>(op) &&
      !op->use_empty()) {
    Type type = op->getResult(0).getType();
    auto bases = blockBases(type);
    bool copies = !isa<RankedTensorType>(type) ||
                  (bases && llvm::any_of(*bases, [](const LinearLayout::Basis &b) {
                     return llvm::all_of(b, [](int32_t c) { return c == 0; });
                   }));
    if (copies)
      return fail("several CTAs hold its elements and would all need the value one atomic "
                  "returns; sharing it between CTAs is not lowered yet");
  }
  // A product: each CTA computes its part of the result from the rows of A
  // and the columns of B it needs (layout::operandCGA).
  if (op->hasTrait<tt::traits::DotLike>() && op->getNumOperands() >= 3 &&
      op->getNumResults() == 1) {
    auto d = blockBases(op->getResult(0).getType());
    auto a = blockBases(op->getOperand(0).getType()), b = blockBases(op->getOperand(1).getType());
    auto c = blockBases(op->getOperand(2).getType());
    if (!d || !a || !b || !c)
      return success(); // checkTypes reports layouts that do not fit
    std::vector<LinearLayout::Basis> wantA = *d, wantB = *d;
    for (LinearLayout::Basis &basis : wantA)
      basis.back() = 0;
    for (LinearLayout::Basis &basis : wantB)
      basis[basis.size() - 2] = 0;
    if (*a != wantA || *b != wantB || *c != *d)
      return fail("its operands are not split over the CTAs as its result is (A along M, B "
                  "along N, both whole along K)");
    return success();
  }
  // Everything else lowers tile by tile: the tensors and buffers of one
  // shape it touches must be split alike (or held whole by every CTA).
  SmallVector<Type> types;
  for (Type t : op->getOperandTypes())
    if (isa<RankedTensorType, ttg::MemDescType>(t))
      types.push_back(t);
  for (Type t : op->getResultTypes())
    if (isa<RankedTensorType, ttg::MemDescType>(t))
      types.push_back(t);
  bool split = false;
  for (Type t : types) {
    auto bases = blockBases(t);
    if (!bases || replicated(*bases))
      continue; // checkTypes reports a layout that does not fit
    split = true;
    for (Type u : types)
      if (cast<ShapedType>(u).getShape() == cast<ShapedType>(t).getShape() && !sameSplit(t, u))
        return fail("its operands and results are split over the CTAs differently");
  }
  if (!split)
    return success();
  if (isa<tt::GatherOp, tt::HistogramOp, tt::DotScaledOp>(op))
    return fail("splitting its tensors over the CTAs of a cluster is not lowered yet");
  // Buffers split over the CTAs: each CTA's shared memory holds its tile,
  // which these ops address as a buffer of its own.
  // (An op that hands its operands back, as a wait for a product does, moves
  // nothing.)
  bool buffers = llvm::any_of(types, [](Type t) { return isa<ttg::MemDescType>(t); });
  bool passesThrough = llvm::all_of(op->getResultTypes(), [&](Type t) {
    return llvm::is_contained(op->getOperandTypes(), t);
  });
  if (buffers && !passesThrough && !lowersCTATiles &&
      !isa<ttg::LocalAllocOp, ttg::LocalLoadOp, ttg::LocalStoreOp, ttg::LocalDeallocOp,
           ttg::MemDescIndexOp, ttg::MemDescTransOp, ttg::AsyncCopyGlobalToLocalOp>(op))
    return fail("shared-memory buffers split over the CTAs of a cluster are not lowered yet for "
                "this op");
  return success();
}

} // namespace kiln::lowering
