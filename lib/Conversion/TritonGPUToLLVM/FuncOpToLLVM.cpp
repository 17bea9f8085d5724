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

/// A program's bytes of the hidden global_scratch parameter: its slice
/// starts at (linear program id) * ttg.global_scratch_memory_size, the
/// buffer at its offset in the slice.
struct GlobalScratchAllocLowering : OpConversionPattern<ttg::GlobalScratchAllocOp> {
  GlobalScratchAllocLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttg::GlobalScratchAllocOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto offset = op->getAttrOfType<IntegerAttr>("ttg.global_scratch_memory_offset");
    auto module = op->getParentOfType<ModuleOp>();
    auto size = module ? module->getAttrOfType<IntegerAttr>("ttg.global_scratch_memory_size")
                       : IntegerAttr();
    if (!offset || !size)
      return op.emitError() << "global scratch memory has no offset yet (run "
                               "llir.allocate-global-scratch first)";
    auto kernel = op->getParentOfType<LLVM::LLVMFuncOp>();
    if (!kernel)
      return rewriter.notifyMatchFailure(op, "not in a converted kernel");
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    auto wide = [&](Value v) { return LLVM::ZExtOp::create(rewriter, loc, i64, v); };
    // Per CTA, clusters included: launchers allocate a slice for each CTA of
    // the grid (programs times num_ctas).
    auto pid = [&](unsigned axis) { return wide(ctx.target.programId(rewriter, loc, axis, 1)); };
    auto count = [&](unsigned axis) {
      return wide(ctx.target.numPrograms(rewriter, loc, axis, 1));
    };
    Value linear = LLVM::AddOp::create(
        rewriter, loc, pid(0),
        LLVM::MulOp::create(rewriter, loc, count(0),
                            LLVM::AddOp::create(rewriter, loc, pid(1),
                                                LLVM::MulOp::create(rewriter, loc, count(1),
                                                                    pid(2)))));
    auto constant = [&](int64_t v) {
      return LLVM::ConstantOp::create(rewriter, loc, i64, rewriter.getI64IntegerAttr(v));
    };
    Value bytes = LLVM::AddOp::create(
        rewriter, loc, LLVM::MulOp::create(rewriter, loc, linear, constant(size.getInt())),
        constant(offset.getInt()));
    // The hidden parameters are the last two: global_scratch, profile_scratch.
    Value base = kernel.getArgument(kernel.getNumArguments() - 2);
    rewriter.replaceOpWithNewOp<LLVM::GEPOp>(op, base.getType(), rewriter.getI8Type(), base,
                                             ArrayRef<LLVM::GEPArg>{bytes});
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
