//===- TensorMapToLLVM.cpp - tensor maps made on the device ---------------===//
//
// `ttng.tensormap_create` writes the 128-byte map straight into its global
// scratch: thread 0 zeroes it, sets every field with `tensormap.replace`
// and releases it to the tensor-map proxy; a CTA barrier then lets every
// thread acquire it (`ttng.tensormap_fenceproxy_acquire`) before the TMA
// copies it issues. Writing in global memory needs no shared staging
// buffer, so the op takes no shared memory.
//
//===----------------------------------------------------------------------===//
#include "PTXHelpers.h"
#include "Patterns.h"

#include "kiln/Backend/NVIDIA/TargetInfo.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "kiln/Dialect/TritonNvidiaGPU/IR/TMA.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <string>

using namespace mlir;
using namespace kiln::lowering;
using kiln::nvidia::detail::ptx;

namespace kiln::nvidia {
namespace {

/// One inline-PTX block whose instructions all run where `pred` (operand
/// $0) holds.
struct PTXBlock {
  explicit PTXBlock(Value pred) : constraints("b"), args{pred} {}
  std::string text, constraints;
  SmallVector<Value> args;
  std::string operand(Value v, StringRef constraint) {
    constraints += "," + constraint.str();
    args.push_back(v);
    return "$" + std::to_string(args.size() - 1);
  }
  void add(StringRef instr) { text += "@$0 " + instr.str() + ";\n\t"; }
  void emit(OpBuilder &b, Location loc) {
    ptx(b, loc, Type(), text, constraints, args, /*sideEffects=*/true);
  }
};

struct TensormapCreateLowering : OpConversionPattern<ttng::TensormapCreateOp> {
  TensormapCreateLowering(lowering::TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttng::TensormapCreateOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    PTXBlock block(isThreadZero(rewriter, loc, ctx));
    std::string map = block.operand(
        LLVM::PtrToIntOp::create(rewriter, loc, i64, adaptor.getDescPtr()), "l");
    std::string zero =
        block.operand(LLVM::ConstantOp::create(rewriter, loc, i64, rewriter.getI64IntegerAttr(0)),
                      "l");
    // The fields tensormap.replace leaves alone must be zero.
    for (int64_t at = 0; at < ttng::kTensorMapBytes; at += 8)
      block.add("st.global.b64 [" + map + "+" + std::to_string(at) + "], " + zero);
    auto field = [&](StringRef name, StringRef bits) {
      return "tensormap.replace.tile." + name.str() + ".global.b1024." + bits.str() + " [" + map +
             "], ";
    };
    block.add(field("global_address", "b64") +
              block.operand(LLVM::PtrToIntOp::create(rewriter, loc, i64,
                                                     adaptor.getGlobalAddress()),
                            "l"));
    block.add(field("rank", "b32") + std::to_string(op.getRank() - 1));
    auto perDimension = [&](StringRef name, StringRef bits, ValueRange values,
                            StringRef constraint) {
      for (auto [d, v] : llvm::enumerate(values))
        block.add(field(name, bits) + std::to_string(d) + ", " + block.operand(v, constraint));
    };
    perDimension("box_dim", "b32", adaptor.getBoxDim(), "r");
    perDimension("global_dim", "b32", adaptor.getGlobalDim(), "r");
    perDimension("global_stride", "b64", adaptor.getGlobalStride(), "l");
    perDimension("element_stride", "b32", adaptor.getElementStride(), "r");
    block.add(field("elemtype", "b32") + std::to_string(op.getElemType()));
    block.add(field("interleave_layout", "b32") + std::to_string(op.getInterleaveLayout()));
    block.add(field("swizzle_mode", "b32") + std::to_string(op.getSwizzleMode()));
    block.add(field("fill_mode", "b32") + std::to_string(op.getFillMode()));
    block.add("fence.proxy.tensormap::generic.release.gpu");
    block.emit(rewriter, loc);
    // Orders thread 0's release before every thread's acquire.
    ctx.target.barrier(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
  const Context &ctx;
};

struct TensormapAcquireLowering : OpConversionPattern<ttng::TensormapFenceproxyAcquireOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttng::TensormapFenceproxyAcquireOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value map = LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(),
                                         adaptor.getDescPtr());
    ptx(rewriter, loc, Type(),
        "fence.proxy.tensormap::generic.acquire.gpu [$0], " +
            std::to_string(ttng::kTensorMapBytes) + ";",
        "l", {map}, /*sideEffects=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};

// A descriptor is the generic address of its tensor map.
struct ReinterpretTensorDescLowering : OpConversionPattern<ttng::ReinterpretTensorDescOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ttng::ReinterpretTensorDescOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type generic = getTypeConverter()->convertType(op.getType());
    if (!generic)
      return failure();
    rewriter.replaceOpWithNewOp<LLVM::AddrSpaceCastOp>(op, generic, adaptor.getRawDesc());
    return success();
  }
};

} // namespace

bool isTensorMapOp(Operation *op) {
  return isa<ttng::TensormapCreateOp, ttng::TensormapFenceproxyAcquireOp,
             ttng::ReinterpretTensorDescOp>(op);
}

void populateTensorMapPatterns(lowering::TypeConverter &converter, const Context &ctx,
                               RewritePatternSet &patterns) {
  patterns.add<TensormapCreateLowering>(converter, ctx);
  patterns.add<TensormapAcquireLowering, ReinterpretTensorDescLowering>(converter,
                                                                        &converter.getContext());
}

} // namespace kiln::nvidia
