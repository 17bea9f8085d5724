//===- Fuse.cpp - arith.mulf + arith.addf -> fusedma.fma ------------------===//
#include "FusedMA.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace fusedma {
#define GEN_PASS_DEF_FUSEDMAFUSE
#include "Passes.h.inc"
} // namespace fusedma

using namespace mlir;

namespace {

/// `value` as a product the add in `block` may absorb: an arith.mulf with no
/// other user, computed in that block (fusing across blocks could move the
/// multiplication into a loop body).
arith::MulFOp fusableProduct(Value value, Block *block) {
  auto mul = value.getDefiningOp<arith::MulFOp>();
  if (!mul || !mul->hasOneUse() || mul->getBlock() != block)
    return nullptr;
  return mul;
}

struct FuseMulAdd : OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::AddFOp add, PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(add.getType());
    if (!type || !isa<FloatType>(type.getElementType()))
      return rewriter.notifyMatchFailure(add, "not a ranked tensor of floats");
    Value addend = add.getRhs();
    arith::MulFOp mul = fusableProduct(add.getLhs(), add->getBlock());
    if (!mul) {
      addend = add.getLhs();
      mul = fusableProduct(add.getRhs(), add->getBlock());
    }
    if (!mul)
      return rewriter.notifyMatchFailure(add, "no single-use arith.mulf addend");
    rewriter.replaceOpWithNewOp<fusedma::FmaOp>(add, mul.getLhs(), mul.getRhs(), addend);
    rewriter.eraseOp(mul);
    return success();
  }
};

struct FusePass : fusedma::impl::FusedMAFuseBase<FusePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseMulAdd>(&getContext());
    // One visit per op and no folding: the pass fuses and changes nothing
    // else. A product is visited before its add (it dominates it), so the
    // pattern may erase it.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
