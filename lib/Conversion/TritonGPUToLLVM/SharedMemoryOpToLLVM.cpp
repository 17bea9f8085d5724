//===- SharedMemoryOpToLLVM.cpp - barriers and shared-memory buffers ------===//
//
// Offsets come from llir.allocate-shared-memory and barriers from
// llir.insert-barriers; here they become the target's barrier and
// addresses in the kernel's one dynamic shared-memory array.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace kiln::lowering {
namespace {

struct BarrierOpLowering : OpConversionPattern<gpu::BarrierOp> {
  BarrierOpLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(gpu::BarrierOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    ctx.target.barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

} // namespace

void populateSharedMemoryPatterns(TypeConverter &converter, const Context &ctx,
                                  RewritePatternSet &patterns) {
  patterns.add<BarrierOpLowering>(converter, ctx);
}

} // namespace kiln::lowering
