//===- OptimizeAccumulatorInit.cpp - zero accumulators as wgmma flags -----===//
//
// A wgmma whose accumulator is `select(c, 0, acc)` (a fused persistent
// loop restarting its tile) reads `acc` with use_acc = !c instead: the
// select would read every accumulator register, which a wgmma still in
// flight owns, and costs as many instructions.
//
//===----------------------------------------------------------------------===//
#include "kiln/Backend/NVIDIA/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"

namespace kiln::nvidia {
#define GEN_PASS_DEF_OPTIMIZEACCUMULATORINIT
#include "kiln/Backend/NVIDIA/Transforms/Passes.h.inc"
} // namespace kiln::nvidia

using namespace mlir;
using namespace kiln;

namespace {

bool isZero(Value v) { return matchPattern(v, m_AnyZeroFloat()) || matchPattern(v, m_Zero()); }

struct OptimizeAccumulatorInitPass
    : public nvidia::impl::OptimizeAccumulatorInitBase<OptimizeAccumulatorInitPass> {
  void runOnOperation() override {
    getOperation().walk([](ttng::WarpGroupDotOp dot) {
      auto select = dot.getC().getDefiningOp<arith::SelectOp>();
      // Only a scalar condition maps onto the instruction's flag.
      if (!select || !select->hasOneUse() || !select.getCondition().getType().isInteger(1))
        return;
      // The condition under which the accumulator is read.
      OpBuilder b(dot);
      Location loc = dot.getLoc();
      Value use, acc;
      bool zeroIfTrue = isZero(select.getTrueValue());
      if (!zeroIfTrue && !isZero(select.getFalseValue()))
        return;
      if (zeroIfTrue) {
        Value one = arith::ConstantIntOp::create(b, loc, 1, 1);
        use = arith::XOrIOp::create(b, loc, select.getCondition(), one);
        acc = select.getFalseValue();
      } else {
        use = select.getCondition();
        acc = select.getTrueValue();
      }
      if (Value prior = dot.getUseC())
        use = arith::AndIOp::create(b, loc, prior, use);
      dot.getCMutable().assign(acc);
      dot.getUseCMutable().assign(use);
      select->erase();
    });
  }
};

} // namespace
