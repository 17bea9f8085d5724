//===- CallOpToLLVM.cpp - device functions and tt.call --------------------===//
//
// A private tt.func (a device function left by the ttir stage's inliner,
// e.g. one marked noinline) becomes an internal llvm.func over the register
// structs of its tensors, taking the `!llvm.ptr<3>` of its part of shared
// memory and, like Triton's, the two hidden scratch pointers last. Several
// results come back as one struct. tt.call passes its own allocations (the
// callee's buffers, placed in the caller's shared memory and global
// scratch) and the caller's profile pointer.
//
//===----------------------------------------------------------------------===//
#include "Elementwise.h"

#include "kiln/Analysis/Allocation.h"
#include "kiln/Dialect/Triton/IR/Dialect.h"

using namespace mlir;

namespace kiln::lowering {
namespace {

/// The LLVM result of a function returning `results` (converted): none,
/// one, or a struct of several.
Type resultOf(MLIRContext *ctx, ArrayRef<Type> results) {
  if (results.empty())
    return LLVM::LLVMVoidType::get(ctx);
  if (results.size() == 1)
    return results[0];
  return LLVM::LLVMStructType::getLiteral(ctx, results);
}

FailureOr<SmallVector<Type>> convertAll(const mlir::TypeConverter &tc, TypeRange types) {
  SmallVector<Type> out;
  for (Type t : types) {
    Type c = tc.convertType(t);
    if (!c)
      return failure();
    out.push_back(c);
  }
  return out;
}

struct DeviceFuncLowering : OpConversionPattern<tt::FuncOp> {
  DeviceFuncLowering(TypeConverter &converter)
      : OpConversionPattern(converter, &converter.getContext(), /*benefit=*/2) {}

  LogicalResult matchAndRewrite(tt::FuncOp func, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (func.isPublic())
      return failure(); // a kernel (FuncOpToLLVM.cpp)
    MLIRContext *ctx = func.getContext();
    FunctionType type = func.getFunctionType();
    FailureOr<mlir::TypeConverter::SignatureConversion> abi =
        kernelABISignature(*getTypeConverter(), type, /*deviceFunction=*/true);
    if (failed(abi))
      return rewriter.notifyMatchFailure(func, "argument type has no LLVM form");
    mlir::TypeConverter::SignatureConversion &signature = *abi;
    FailureOr<SmallVector<Type>> results = convertAll(*getTypeConverter(), type.getResults());
    if (failed(results))
      return rewriter.notifyMatchFailure(func, "result type has no LLVM form");
    auto llvmType =
        LLVM::LLVMFunctionType::get(resultOf(ctx, *results), signature.getConvertedTypes());
    auto llvmFunc = LLVM::LLVMFuncOp::create(rewriter, func.getLoc(), func.getName(), llvmType,
                                             LLVM::Linkage::Internal);
    if (auto noinline = func->getAttrOfType<BoolAttr>("noinline"); noinline && noinline.getValue())
      llvmFunc.setNoInlineAttr(rewriter.getUnitAttr());
    rewriter.inlineRegionBefore(func.getBody(), llvmFunc.getBody(), llvmFunc.end());
    if (failed(rewriter.convertRegionTypes(&llvmFunc.getBody(), *getTypeConverter(), &signature)))
      return failure();
    rewriter.eraseOp(func);
    return success();
  }
};

/// Returns of several values pack them (one value or none: FuncOpToLLVM.cpp).
struct MultiReturnLowering : OpConversionPattern<tt::ReturnOp> {
  MultiReturnLowering(TypeConverter &converter)
      : OpConversionPattern(converter, &converter.getContext(), /*benefit=*/2) {}
  LogicalResult matchAndRewrite(tt::ReturnOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (adaptor.getOperands().size() < 2)
      return failure();
    SmallVector<Type> types(adaptor.getOperands().getTypes());
    Type st = resultOf(getContext(), types);
    Value packed = pack(rewriter, op.getLoc(), st, adaptor.getOperands());
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, packed);
    return success();
  }
};

struct CallLowering : OpConversionPattern<tt::CallOp> {
  CallLowering(TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(tt::CallOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto caller = op->getParentOfType<LLVM::LLVMFuncOp>();
    if (!caller || caller.getBody().front().getNumArguments() < 2)
      return rewriter.notifyMatchFailure(op, "caller not lowered yet");
    FailureOr<SmallVector<Type>> results = convertAll(*getTypeConverter(), op.getResultTypes());
    if (failed(results))
      return failure();
    SmallVector<Value> args(adaptor.getOperands());
    // The callee's shared memory: the call's allocation when it needs some,
    // else a null pointer it never reads.
    Value shared = LLVM::ZeroOp::create(rewriter, loc, LLVM::LLVMPointerType::get(getContext(), 3));
    if (op->hasAttr(kAllocationOffsetAttr)) {
      FailureOr<Value> base = sharedMemoryBase(rewriter, loc, op);
      if (failed(base))
        return failure();
      shared = *base;
    }
    args.push_back(shared);
    llvm::append_range(args, caller.getBody().front().getArguments().take_back(2));
    if (op->hasAttr("ttg.global_scratch_memory_offset")) {
      FailureOr<Value> scratch = globalScratchBase(rewriter, loc, ctx, op);
      if (failed(scratch))
        return failure();
      args[args.size() - 2] = *scratch;
    }
    SmallVector<Type> argTypes(ValueRange(args).getTypes());
    auto type = LLVM::LLVMFunctionType::get(resultOf(getContext(), *results), argTypes);
    auto call = LLVM::CallOp::create(rewriter, loc, type, op.getCalleeAttr(), args);
    if (results->size() < 2) {
      rewriter.replaceOp(op, call->getResults());
      return success();
    }
    SmallVector<Value> values = unpack(rewriter, loc, call.getResult());
    rewriter.replaceOp(op, values);
    return success();
  }
  const Context &ctx;
};

} // namespace

void populateCallPatterns(TypeConverter &converter, const Context &ctx,
                          RewritePatternSet &patterns) {
  patterns.add<DeviceFuncLowering, MultiReturnLowering>(converter);
  patterns.add<CallLowering>(converter, ctx);
}

} // namespace kiln::lowering
