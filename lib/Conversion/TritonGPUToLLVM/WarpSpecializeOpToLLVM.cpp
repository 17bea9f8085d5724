//===- WarpSpecializeOpToLLVM.cpp - ttg.warp_specialize's types -----------===//
//
// The conversion keeps ttg.warp_specialize and its regions and converts only
// the types crossing them (captures, partition arguments, results), as
// Triton does: how the regions reach their warps (dispatch, barriers,
// registers) is the back end's, in a pass after this one.
//
//===----------------------------------------------------------------------===//
#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

using namespace mlir;

namespace kiln::lowering {
namespace {

struct WarpSpecializeLowering : OpConversionPattern<ttg::WarpSpecializeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::WarpSpecializeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), results)))
      return rewriter.notifyMatchFailure(op, "result type has no LLVM form");
    OperationState state(op.getLoc(), op->getName());
    state.addOperands(adaptor.getExplicitCaptures());
    state.addTypes(results);
    state.addAttributes(op->getAttrs());
    state.addRegion();
    state.addRegion();
    Operation *converted = rewriter.create(state);
    for (auto [from, to] : llvm::zip(op->getRegions(), converted->getRegions()))
      rewriter.inlineRegionBefore(from, to, to.end());
    for (Region &partition : cast<ttg::WarpSpecializeOp>(converted).getPartitionRegions())
      if (failed(rewriter.convertRegionTypes(&partition, *getTypeConverter())))
        return failure();
    rewriter.replaceOp(op, converted->getResults());
    return success();
  }
};

struct WarpYieldLowering : OpConversionPattern<ttg::WarpYieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttg::WarpYieldOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.modifyOpInPlace(op, [&] { op->setOperands(adaptor.getValues()); });
    return success();
  }
};

} // namespace

void populateWarpSpecializePatterns(TypeConverter &converter, ConversionTarget &target,
                                    RewritePatternSet &patterns) {
  target.addDynamicallyLegalOp<ttg::WarpSpecializeOp>([&converter](ttg::WarpSpecializeOp op) {
    return converter.isLegal(op.getOperation()) &&
           llvm::all_of(op.getPartitionRegions(),
                        [&](Region &r) { return converter.isLegal(r.getArgumentTypes()); });
  });
  target.addDynamicallyLegalOp<ttg::WarpYieldOp>(
      [&converter](ttg::WarpYieldOp op) { return converter.isLegal(op.getOperation()); });
  target.addLegalOp<ttg::WarpSpecializePartitionsOp, ttg::WarpReturnOp>();
  patterns.add<WarpSpecializeLowering, WarpYieldLowering>(converter, patterns.getContext());
}

LogicalResult checkWarpSpecializeLowering(Operation *op) {
  auto ws = dyn_cast<ttg::WarpSpecializeOp>(op);
  if (!ws)
    return success();
  for (Value capture : ws.getExplicitCaptures())
    if (isa<RankedTensorType>(capture.getType()))
      return op->emitError() << "ttg.warp_specialize cannot pass the tensor " << capture.getType()
                             << " to its partitions, whose warps hold no part of it (pass it "
                                "through shared memory, or capture the scalars it is made of)";
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp())
    if (isa<ttg::WarpSpecializeOp>(p))
      return op->emitError("ttg.warp_specialize inside another one is not supported");
  return success();
}

} // namespace kiln::lowering
