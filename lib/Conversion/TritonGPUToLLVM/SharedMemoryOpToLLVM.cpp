//===- SharedMemoryOpToLLVM.cpp - barriers and shared-memory buffers ------===//
//
// Offsets come from llir.allocate-shared-memory and barriers from
// llir.insert-barriers; here they become the target's barrier and
// addresses in the kernel's one dynamic shared-memory array. The grid-level
// synchronisation of programmatic dependent launch is here too.
//
//===----------------------------------------------------------------------===//
#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <type_traits>

using namespace mlir;

namespace kiln::lowering {
namespace {

/// gpu.barrier (Triton 3.6) and every ttg.barrier (3.7 and later): one
/// barrier of the whole CTA, which orders all of its memory accesses.
template <typename Op> struct BarrierOpLowering : OpConversionPattern<Op> {
  BarrierOpLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern<Op>(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    ctx.target.barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

/// tt.grid_dependency_wait / _launch_dependents (programmatic dependent
/// launch; the target was checked to have it).
template <typename Op> struct GridDependencyLowering : OpConversionPattern<Op> {
  GridDependencyLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern<Op>(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if constexpr (std::is_same_v<Op, tt::GridDependencyWaitOp>)
      ctx.target.gridDependencyWait(rewriter, op.getLoc());
    else
      ctx.target.gridDependencyLaunchDependents(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

} // namespace

void populateSharedMemoryPatterns(TypeConverter &converter, const Context &ctx,
                                  RewritePatternSet &patterns) {
  patterns.add<BarrierOpLowering<gpu::BarrierOp>, BarrierOpLowering<ttg::BarrierOp>,
               GridDependencyLowering<tt::GridDependencyWaitOp>,
               GridDependencyLowering<tt::GridDependencyLaunchDependentsOp>>(converter, ctx);
}

} // namespace kiln::lowering
