//===- LoopInvariantCodeMotion.cpp - LICM that honours tt.disable_licm ----===//
//
// MLIR's loop-invariant code motion, loop by loop, skipping the loops a
// kernel author marked with `tl.range(..., disable_licm=True)`.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Triton/Transforms/Passes.h"

#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace kiln::tt {
#define GEN_PASS_DEF_TRITONLOOPINVARIANTCODEMOTION
#include "kiln/Dialect/Triton/Transforms/Passes.h.inc"
} // namespace kiln::tt

using namespace mlir;

namespace {

struct LoopInvariantCodeMotionPass
    : kiln::tt::impl::TritonLoopInvariantCodeMotionBase<LoopInvariantCodeMotionPass> {
  void runOnOperation() override {
    // Inner loops first, so that what leaves them can leave the outer ones.
    getOperation()->walk([](LoopLikeOpInterface loop) {
      if (!loop->hasAttr("tt.disable_licm"))
        moveLoopInvariantCode(loop);
    });
  }
};

} // namespace
