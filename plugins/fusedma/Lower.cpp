//===- Lower.cpp - fusedma.fma -> math.fma --------------------------------===//
#include "FusedMA.h"

#include "mlir/IR/PatternMatch.h"

namespace fusedma {
#define GEN_PASS_DEF_FUSEDMALOWER
#include "Passes.h.inc"
} // namespace fusedma

using namespace mlir;

namespace {

struct LowerPass : fusedma::impl::FusedMALowerBase<LowerPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Post-order walk: erasing the visited op is allowed.
    getOperation().walk([&](fusedma::FmaOp fma) {
      rewriter.setInsertionPoint(fma);
      rewriter.replaceOpWithNewOp<math::FmaOp>(fma, fma.getA(), fma.getB(), fma.getC());
    });
  }
};

} // namespace
