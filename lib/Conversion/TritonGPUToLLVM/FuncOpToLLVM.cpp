//===- FuncOpToLLVM.cpp - kernels, returns and program ids ----------------===//
//
// A kernel keeps Triton 3.6's ABI: its arguments in order, then two hidden
// `!llvm.ptr<1>` parameters (global_scratch and profile_scratch) that the
// launcher always passes, even when nothing uses them. What a
// `!tt.tensordesc` argument is passed as, the target decides
// (TargetInfo::lowerTensorDescArgument).
//
//===----------------------------------------------------------------------===//
#include "kiln/Conversion/TritonGPUToLLVM/Lowering.h"

#include "kiln/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

namespace kiln::lowering {
namespace {

struct FuncOpLowering : OpConversionPattern<tt::FuncOp> {
  FuncOpLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}

  LogicalResult matchAndRewrite(tt::FuncOp func, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    MLIRContext *mctx = func.getContext();
    FunctionType type = func.getFunctionType();
    FailureOr<mlir::TypeConverter::SignatureConversion> abi =
        kernelABISignature(*getTypeConverter(), type);
    if (failed(abi))
      return rewriter.notifyMatchFailure(func, "argument type has no LLVM form");
    mlir::TypeConverter::SignatureConversion &signature = *abi;
    auto llvmType =
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(mctx), signature.getConvertedTypes());
    auto kernel = LLVM::LLVMFuncOp::create(rewriter, func.getLoc(), func.getName(), llvmType,
                                           LLVM::Linkage::External);
    for (auto [i, input] : llvm::enumerate(type.getInputs()))
      if (auto desc = dyn_cast<tt::TensorDescType>(input))
        if (failed(ctx.target.lowerTensorDescArgument(func, kernel, unsigned(i), desc)))
          return failure();
    rewriter.inlineRegionBefore(func.getBody(), kernel.getBody(), kernel.end());
    if (failed(rewriter.convertRegionTypes(&kernel.getBody(), *getTypeConverter(), &signature)))
      return failure();
    std::optional<unsigned> maxRegisters;
    unsigned warps = ctx.numWarps;
    if (auto module = func->getParentOfType<ModuleOp>()) {
      if (auto attr = module->getAttrOfType<IntegerAttr>("ttg.maxnreg"))
        maxRegisters = unsigned(attr.getInt());
      // With warp-specialised partitions, their warps too.
      if (auto total = module->getAttrOfType<IntegerAttr>("ttg.total-num-warps"))
        warps = std::max(warps, unsigned(total.getInt()));
    }
    ctx.target.markKernel(kernel, ctx.warpSize * warps, maxRegisters, ctx.clusterCTAs);
    rewriter.eraseOp(func);
    return success();
  }

  const Context &ctx;
};

struct ReturnOpLowering : OpConversionPattern<tt::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tt::ReturnOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, adaptor.getOperands());
    return success();
  }
};

template <typename Op, bool isCount>
struct GridOpLowering : OpConversionPattern<Op> {
  GridOpLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern<Op>(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(Op op, typename Op::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    unsigned axis = unsigned(op.getAxis());
    rewriter.replaceOp(op, isCount
                               ? ctx.target.numPrograms(rewriter, op.getLoc(), axis, ctx.clusterCTAs)
                               : ctx.target.programId(rewriter, op.getLoc(), axis, ctx.clusterCTAs));
    return success();
  }
  const Context &ctx;
};

/// The buffer's bytes of the program's global scratch (Lowering.cpp).
struct GlobalScratchAllocLowering : OpConversionPattern<ttg::GlobalScratchAllocOp> {
  GlobalScratchAllocLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttg::GlobalScratchAllocOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> base = globalScratchBase(rewriter, op.getLoc(), ctx, op);
    if (failed(base))
      return failure();
    rewriter.replaceOp(op, *base);
    return success();
  }
  const Context &ctx;
};

/// The target's thread index (its warp-specialise lowering then counts a
/// partition's from the partition's first thread).
struct ThreadIdLowering : OpConversionPattern<ttg::ThreadIdOp> {
  ThreadIdLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttg::ThreadIdOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, ctx.target.threadId(rewriter, op.getLoc()));
    return success();
  }
  const Context &ctx;
};

} // namespace

void populateFuncPatterns(TypeConverter &converter, const Context &ctx,
                          RewritePatternSet &patterns) {
  patterns.add<FuncOpLowering, GridOpLowering<tt::GetProgramIdOp, false>,
               GridOpLowering<tt::GetNumProgramsOp, true>, GlobalScratchAllocLowering,
               ThreadIdLowering>(converter, ctx);
  patterns.add<ReturnOpLowering>(converter, &converter.getContext());
}

} // namespace kiln::lowering
