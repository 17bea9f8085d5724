//===- TensorMapToLLVM.cpp - tensor maps made on the device ---------------===//
//
// `ttng.tensormap_create` builds the 128-byte map in its shared scratch and
// copies it to its global home, as the PTX ISA prescribes for maps made on
// the device (and as Triton does): warp 0 zeroes the scratch, thread 0 sets
// every field with `tensormap.replace`, and the warp copies the map out with
// `tensormap.cp_fenceproxy`, which also releases it to the tensor-map
// proxy. A CTA barrier then lets every thread acquire it
// (`ttng.tensormap_fenceproxy_acquire`) before the TMA copies it issues.
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

struct TensormapCreateLowering : OpConversionPattern<ttng::TensormapCreateOp> {
  TensormapCreateLowering(lowering::TypeConverter &converter, const Context &ctx)
      : OpConversionPattern(converter, &converter.getContext()), ctx(ctx) {}
  LogicalResult matchAndRewrite(ttng::TensormapCreateOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    if (ctx.warpSize * 4 != ttng::kTensorMapBytes)
      return op.emitError() << "a tensor map is built by a warp of 32 threads; this target's "
                               "warps have " << ctx.warpSize;
    FailureOr<Value> scratch = sharedMemoryBase(rewriter, loc, op);
    if (failed(scratch))
      return failure();
    Value tid = ctx.target.threadId(rewriter, loc);
    Value warpSize = i32Constant(rewriter, loc, ctx.warpSize);
    auto ult = [&](Value a, Value b) {
      return LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult, a, b);
    };
    // Operands: $0 warp 0, $1 thread 0, $2 the map in shared memory, $3
    // this thread's word of it (only warp 0's threads store one), $4 the
    // map's global home, then the fields.
    std::string constraints = "b,b,r,r,l";
    SmallVector<Value> args = {
        ult(tid, warpSize), isThreadZero(rewriter, loc, ctx),
        LLVM::PtrToIntOp::create(rewriter, loc, i32, *scratch),
        LLVM::PtrToIntOp::create(rewriter, loc, i32,
                                 LLVM::GEPOp::create(rewriter, loc, scratch->getType(), i32,
                                                     *scratch, ValueRange{tid})),
        LLVM::PtrToIntOp::create(rewriter, loc, i64, adaptor.getDescPtr())};
    auto operand = [&](Value v, StringRef constraint) {
      constraints += "," + constraint.str();
      args.push_back(v);
      return "$" + std::to_string(args.size() - 1);
    };
    // 128 bytes: a word from each of 32 lanes (an NVIDIA warp).
    std::string text = "@$0 st.shared.b32 [$3], 0;\n\t@$0 bar.warp.sync -1;\n\t";
    auto field = [&](StringRef name, StringRef bits, const std::string &value) {
      text += "@$1 tensormap.replace.tile." + name.str() + ".shared::cta.b1024." + bits.str() +
              " [$2], " + value + ";\n\t";
    };
    field("global_address", "b64",
          operand(LLVM::PtrToIntOp::create(rewriter, loc, i64, adaptor.getGlobalAddress()), "l"));
    field("rank", "b32", std::to_string(op.getRank() - 1));
    auto perDimension = [&](StringRef name, StringRef bits, ValueRange values,
                            StringRef constraint) {
      for (auto [d, v] : llvm::enumerate(values))
        field(name, bits, std::to_string(d) + ", " + operand(v, constraint));
    };
    perDimension("box_dim", "b32", adaptor.getBoxDim(), "r");
    perDimension("global_dim", "b32", adaptor.getGlobalDim(), "r");
    perDimension("global_stride", "b64", adaptor.getGlobalStride(), "l");
    perDimension("element_stride", "b32", adaptor.getElementStride(), "r");
    field("elemtype", "b32", std::to_string(op.getElemType()));
    field("interleave_layout", "b32", std::to_string(op.getInterleaveLayout()));
    field("swizzle_mode", "b32", std::to_string(op.getSwizzleMode()));
    field("fill_mode", "b32", std::to_string(op.getFillMode()));
    text += "@$0 bar.warp.sync -1;\n\t@$0 tensormap.cp_fenceproxy.global.shared::cta.tensormap::"
            "generic.release.gpu.sync.aligned [$4], [$2], " +
            std::to_string(ttng::kTensorMapBytes) + ";";
    ptx(rewriter, loc, Type(), text, constraints, args, /*sideEffects=*/true);
    // Orders warp 0's release before every thread's acquire.
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
