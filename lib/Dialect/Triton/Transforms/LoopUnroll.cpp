//===- LoopUnroll.cpp - the ttir-loop-unroll pass -------------------------===//
//
// Unrolls the scf.for loops a kernel author tagged with
// `tt.loop_unroll_factor` (`tl.range(..., loop_unroll_factor=N)`), as
// Triton 3.6's loop-unroll pass does.
//
//===----------------------------------------------------------------------===//
#include "kiln/Dialect/Triton/Transforms/Passes.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"

namespace kiln::tt {
#define GEN_PASS_DEF_TRITONLOOPUNROLL
#include "kiln/Dialect/Triton/Transforms/Passes.h.inc"
} // namespace kiln::tt

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kUnrollFactorAttr = "tt.loop_unroll_factor";
constexpr llvm::StringLiteral kNumStagesAttr = "tt.num_stages";
// Unrolling makes `factor` copies of the body, so the factor, a plain
// attribute of the input, must not decide alone how much IR is built. Real
// kernels unroll by 2 to 8 a body of at most a few hundred ops.
constexpr int64_t kMaxUnrolledOps = 1 << 16;

struct TritonLoopUnroll : public kiln::tt::impl::TritonLoopUnrollBase<TritonLoopUnroll> {
  void runOnOperation() override {
    // Post-order: inner loops are unrolled before the outer loops that will
    // copy them. The attribute goes first, so neither the copies nor the
    // epilogue loop carry it and a second run is a no-op.
    SmallVector<std::pair<scf::ForOp, int64_t>> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      auto factor = loop->getAttrOfType<IntegerAttr>(kUnrollFactorAttr);
      if (!factor)
        return;
      loop->removeAttr(kUnrollFactorAttr);
      if (factor.getInt() > 1)
        loops.emplace_back(loop, factor.getInt());
    });

    for (auto [loop, factor] : loops) {
      int64_t bodyOps = 0;
      loop.getBody()->walk([&](Operation *) { ++bodyOps; });
      if (factor > kMaxUnrolledOps / bodyOps) {
        loop.emitWarning() << "not unrolling this loop by " << factor << ": its " << bodyOps
                           << " ops would be copied beyond the limit of " << kMaxUnrolledOps;
        continue;
      }
      FailureOr<UnrolledLoopInfo> unrolled = loopUnrollByFactor(loop, factor);
      if (failed(unrolled)) {
        loop.emitWarning() << "could not unroll this loop by " << factor;
        continue;
      }
      // The few leftover iterations are not worth software pipelining.
      if (std::optional<scf::ForOp> epilogue = unrolled->epilogueLoopOp)
        (*epilogue)->setAttr(kNumStagesAttr,
                             IntegerAttr::get(IntegerType::get(&getContext(), 32), 1));
    }
  }
};

} // namespace
