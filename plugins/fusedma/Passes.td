//===- Passes.td - the fusedma plugin's passes -------------*- tablegen -*-===//
#ifndef FUSEDMA_PASSES_TD
#define FUSEDMA_PASSES_TD

include "mlir/Pass/PassBase.td"

def FusedMAFuse : Pass<"fusedma-fuse", "::mlir::ModuleOp"> {
  let summary = "Fuse arith.mulf + arith.addf on float tensors into fusedma.fma";
  let description = [{
    Rewrites `arith.addf(arith.mulf(a, b), c)` and `arith.addf(c,
    arith.mulf(a, b))` into `fusedma.fma a, b, c` when the result is a
    ranked tensor of floats, the product has no other user, and the
    product is computed in the add's block (so no multiplication moves into
    a loop). When both addends qualify, the left one is fused. Scalar
    arithmetic is left alone.

    The fused form rounds once instead of twice. That is the contraction
    Triton performs by default (`enable_fp_fusion=True`), so the pass does
    not look at the ops' fastmath flags.
  }];
  let dependentDialects = ["::fusedma::FusedMADialect"];
}

def FusedMALower : Pass<"fusedma-lower", "::mlir::ModuleOp"> {
  let summary = "Lower fusedma.fma to math.fma";
  let description = [{
    Replaces every `fusedma.fma` with the equivalent `math.fma`, so that the
    module no longer needs the plugin's dialect.
  }];
  let dependentDialects = ["::mlir::math::MathDialect"];
}

#endif // FUSEDMA_PASSES_TD
