//===- Passes.h - kiln's passes over the tt dialect -------------*- C++ -*-===//
#ifndef KILN_DIALECT_TRITON_TRANSFORMS_PASSES_H
#define KILN_DIALECT_TRITON_TRANSFORMS_PASSES_H

#include "kiln/Dialect/Triton/IR/Dialect.h"
#include "mlir/Pass/Pass.h"

namespace kiln::tt {

// createTritonCombine(), createTritonReorderBroadcast(), createTritonLoopUnroll(),
// createTritonRewriteTensorPointer(), createTritonRewriteTensorDescriptorToPointer(),
// createTritonDecomposeScaledDot(), createTritonLoopInvariantCodeMotion().
#define GEN_PASS_DECL
#include "kiln/Dialect/Triton/Transforms/Passes.h.inc"

// registerTritonPasses() and one register<Pass>() per pass.
#define GEN_PASS_REGISTRATION
#include "kiln/Dialect/Triton/Transforms/Passes.h.inc"

} // namespace kiln::tt

#endif
